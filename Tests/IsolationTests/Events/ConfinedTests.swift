import ObservableKit
import Testing

/// The confined family in Swift 6 mode: plain closures that capture what the domain owns,
/// called synchronously. That these compile at all is half of each test.
@Suite("Confined family")
struct ConfinedTests {
  @Test("Contract: a handler may change a captured local, and runs before notify returns")
  func capturesLocalVar() {
    let event = ObservableEvent<Int>()
    var total = 0
    let token = event.observe { total += $0 }
    event.notifyObservers(2)
    #expect(total == 2)
    event.notifyObservers(3)
    #expect(total == 5)
    token.dispose()
    event.notifyObservers(100)
    #expect(total == 5)
  }

  @Test("Contract: a handler may capture a non-Sendable object and self of a plain class")
  func capturesNonSendable() {
    final class Label { var text = "" }
    final class Screen {
      var history: [Int] = []
      var lines: [String] = []
      let bag = DisposeBag()
      init(score: Property<Int>, label: Label) {
        score.observe { label.text = "\($0)" }.disposed(by: bag)
        score.observeChanges { [weak self] in self?.history.append($0) }.disposed(by: bag)
        score.subscribe(self) { newValue, oldValue in self.lines.append("\(oldValue)→\(newValue)") }
        score.subscribe(self) { screen, newValue, _ in screen.lines.append("owner \(newValue)") }
      }
    }
    let score = Property(1)
    let label = Label()
    let screen = Screen(score: score, label: label)
    #expect(label.text == "1", "the replay ran before observe returned")
    score.value = 2
    #expect(label.text == "2")
    #expect(screen.history == [2])
    #expect(screen.lines == ["1→2", "owner 2"])
  }

  @Test("Contract: subscribe passing the owner stops once the owner is gone and does not replay")
  func subscribeWithOwner() {
    final class Observer { var seen: [String] = [] }
    let score = Property(0)
    var observer: Observer? = Observer()
    var log: [String] = []
    score.subscribe(observer!) { owner, newValue, oldValue in
      owner.seen.append("\(oldValue)→\(newValue)")
      log.append("\(newValue)")
    }
    #expect(observer!.seen == [], "no replay")
    score.value = 1
    #expect(observer!.seen == ["0→1"])
    observer = nil
    score.value = 2
    #expect(log == ["1"])
    #expect(score.observerCount == 0)
  }

  @Test("Contract: operator chains take plain closures and stay in the domain")
  func operatorChains() {
    let event = ObservableEvent<Int>()
    var seen: [Int] = []
    let factor = 10
    let token = event.map { $0 * factor }.filter { $0 > 10 }.observe { seen.append($0) }
    for value in 1...3 { event.notifyObservers(value) }
    #expect(seen == [20, 30])
    token.dispose()
  }

  @Test("Contract: values works on a confined event inside its domain")
  func valuesInsideDomain() async {
    let event = ObservableEvent<Int>()
    var iterator = event.values.makeAsyncIterator()
    for value in 1...3 { event.notifyObservers(value) }
    var seen: [Int] = []
    for _ in 1...3 { if let value = await iterator.next() { seen.append(value) } }
    #expect(seen == [1, 2, 3])
  }
}
