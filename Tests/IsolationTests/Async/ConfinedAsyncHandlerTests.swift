import ObservableKit
import Testing
import TestSupport

/// A main-actor view model whose async handlers touch its own state.
@MainActor final class ConfinedViewModel {
  var shown: [Int] = []
  let script = Script()
  let bag = DisposeBag()
}

@Suite("Async handlers on the confined family", timeLimitWhereAvailable(minutes: 1))
@MainActor
struct ConfinedAsyncHandlerTests {
  @Test("Contract: a confined source's async handler runs on the caller's actor, every value in order under .serial")
  func serial() async {
    let score = Property(0)
    let model = ConfinedViewModel()
    score.observe(with: model, policy: .serial) { model, value async in
      MainActor.assertIsolated()
      await model.script.handle(value)
      model.shown.append(value)
    }.disposed(by: model.bag)
    score.value = 1
    score.value = 2
    await model.script.waitFor("start 0")
    for value in 0...2 { await model.script.open(value) }
    await model.script.waitFor("end 2")
    await yieldUntilOnMain { model.shown.count == 3 }
    #expect(model.shown == [0, 1, 2])
    #expect(await model.script.mostRunning == 1)
  }

  @Test("Contract: .latest on a confined source cancels the call in flight")
  func latest() async {
    let query = ObservableEvent<Int>()
    let model = ConfinedViewModel()
    query.observe(with: model, policy: .latest) { model, value async in
      if value == 1 { await untilCancelled(model.script, value) } else { await model.script.handle(value) }
    }.disposed(by: model.bag)
    query.notifyObservers(1)
    await model.script.waitFor("start 1")
    query.notifyObservers(2)
    query.notifyObservers(3)
    await model.script.waitFor("cancelled 1")
    await model.script.open(3)
    await model.script.waitFor("end 3")
    #expect(await model.script.lines == ["start 1", "cancelled 1", "start 3", "end 3"])
  }

  @Test("Contract: disposing the bag cancels a confined async call and releases the handler")
  func bagCancels() async {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    let model = ConfinedViewModel()
    var captured: Tracked? = tracker.make()
    let bag = DisposeBag()
    event.observe(with: model, policy: .dropWhileBusy) { [captured] model, value async in
      captured?.touch()
      await untilCancelled(model.script, value)
    }.disposed(by: bag)
    captured = nil
    event.notifyObservers(1)
    await model.script.waitFor("start 1")
    bag.dispose()
    await model.script.waitFor("cancelled 1")
    #expect(event.observerCount == 0)
    await yieldUntil { tracker.liveCount == 0 }
  }

  @Test("Contract: a confined async subscription holds its owner weakly between values")
  func ownerWeak() async {
    let event = ObservableEvent<Int>()
    var model: ConfinedViewModel? = ConfinedViewModel()
    weak let weakModel = model
    let script = model!.script
    event.observe(with: model!, policy: .serial) { _, value async in await script.log("handled \(value)") }
    event.notifyObservers(1)
    await script.waitFor("handled 1")
    model = nil
    await yieldUntilOnMain { weakModel == nil }
    event.notifyObservers(2)
    await yieldUntilOnMain { event.observerCount == 0 }
    #expect(await script.lines == ["handled 1"])
  }
}

/// `yieldUntil` for a condition on main-actor state.
@MainActor func yieldUntilOnMain(_ condition: () -> Bool) async {
  for _ in 0..<100_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("condition not met after 100,000 yields")
}
