import ObservableKit

// Nonisolated functions, as code without actors is. Each prints the handlers' effects right
// after notifying, so the expected output proves the handlers ran before the call returned.

nonisolated func labelFollowsScore() {
  let model = GameModel()
  let label = Label()
  let bag = DisposeBag()
  model.score.observe { label.text = "\($0)" }.disposed(by: bag)
  print("label after observe: \(label.text)")
  model.score.value = 42
  print("label after set: \(label.text)")
}

nonisolated func localTotal() {
  let event = ObservableEvent<Int>()
  var total = 0
  let token = event.observe { total += $0 }
  event.notifyObservers(1)
  event.notifyObservers(2)
  print("total: \(total)")
  token.dispose()
  event.notifyObservers(100)
  print("total after dispose: \(total)")
}

nonisolated func weakSelfHistory() {
  let event = ObservableEvent<Int>()
  let recorder = HistoryRecorder(event: event)
  event.notifyObservers(1)
  event.notifyObservers(2)
  print("history: \(recorder.history)")
}

nonisolated func subscribeOldAndNew() {
  let score = Property(0)
  let scoreboard = Scoreboard(score: score)
  score.value = 10
  score.value = 20
  for line in scoreboard.lines { print("scoreboard: \(line)") }
}

nonisolated func readmeHUD() {
  let model = GameModel()
  let hud = HUD()
  let bag = DisposeBag()
  model.scoreChangedEvent.observe { hud.lastScore = $0 }.disposeWith(bag)
  model.scoreChangedEvent.notifyObservers(1000)
  print("hud: \(hud.lastScore)")
  bag.dispose()
  model.scoreChangedEvent.notifyObservers(2000)
  print("hud after bag dispose: \(hud.lastScore)")
}

nonisolated func operatorChain() {
  let event = ObservableEvent<Int>()
  var seen: [Int] = []
  let token = event.map { $0 * 2 }.filter { $0 > 2 }.observe { seen.append($0) }
  for value in 1...3 { event.notifyObservers(value) }
  print("chain: \(seen)")
  token.dispose()
}

/// A `for await` loop over a confined event in this function's own domain. No other task may
/// notify the event (that would send it away), so the loop body notifies the next value; the
/// loop subscribes only when it starts, so the first value is a property's replay, merged in.
nonisolated func asyncValues() async {
  let event = ObservableEvent<Int>()
  let start = Property(1)
  var received: [Int] = []
  for await value in event.merge(with: start).values {
    received.append(value)
    if value == 3 { break }
    event.notifyObservers(value + 1)
  }
  print("for await: \(received), observers left: \(event.observerCount)")
}
