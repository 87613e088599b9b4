import ObservableKit
import Testing
import TestSupport

/// What async handlers did, with a way to wait for a line (a continuation, no sleeping), and
/// gates the handlers wait at until the test opens them.
actor Script {
  private(set) var lines: [String] = []
  private var lineWaiters: [(line: String, continuation: CheckedContinuation<Void, Never>)] = []
  private var openGates: Set<Int> = []
  private var gateWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
  private(set) var running = 0
  private(set) var mostRunning = 0

  func log(_ line: String) {
    lines.append(line)
    for waiter in lineWaiters where waiter.line == line { waiter.continuation.resume() }
    lineWaiters.removeAll { $0.line == line }
  }

  /// Returns once `line` was logged.
  func waitFor(_ line: String) async {
    if lines.contains(line) { return }
    await withCheckedContinuation { lineWaiters.append((line, $0)) }
  }

  /// A handler's call for `value`: logs its start, waits for its gate, logs its end.
  func handle(_ value: Int) async {
    running += 1
    mostRunning = max(mostRunning, running)
    log("start \(value)")
    if !openGates.contains(value) {
      await withCheckedContinuation { gateWaiters[value] = $0 }
    }
    running -= 1
    log("end \(value)")
  }

  func open(_ value: Int) {
    openGates.insert(value)
    gateWaiters.removeValue(forKey: value)?.resume()
  }
}

/// Waits until the current task is cancelled, then logs it: a call that only cancellation ends.
func untilCancelled(_ script: Script, _ value: Int) async {
  await script.log("start \(value)")
  while !Task.isCancelled {
    try? await Task.sleep(nanoseconds: 3_600_000_000_000)  // ends at once on cancellation
  }
  await script.log("cancelled \(value)")
}

@Suite("Async handlers with a policy", timeLimitWhereAvailable(minutes: 1))
struct AsyncHandlerTests {
  @Test("Contract: .serial runs every value, in order, one call at a time")
  func serial() async {
    let event = SharedEvent<Int>()
    let script = Script()
    let owner = LifetimeTracker().make()
    let token = event.observe(with: owner, policy: .serial) { _, value async in await script.handle(value) }
    for value in 1...3 { event.notifyObservers(value) }
    await script.waitFor("start 1")
    await script.open(1)
    await script.open(2)
    await script.open(3)
    await script.waitFor("end 3")
    #expect(await script.lines == ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
    #expect(await script.mostRunning == 1)
    token.dispose()
  }

  @Test("Contract: .latest cancels the call in flight and runs the newest value once it has returned")
  func latest() async {
    let event = SharedEvent<Int>()
    let script = Script()
    let owner = LifetimeTracker().make()
    let token = event.observe(with: owner, policy: .latest) { _, value async in
      if value == 1 { await untilCancelled(script, value) } else { await script.handle(value) }
    }
    event.notifyObservers(1)
    await script.waitFor("start 1")
    event.notifyObservers(2)  // cancels 1, waits
    event.notifyObservers(3)  // replaces 2
    await script.waitFor("cancelled 1")
    await script.open(3)
    await script.waitFor("end 3")
    #expect(await script.lines == ["start 1", "cancelled 1", "start 3", "end 3"])
    token.dispose()
  }

  @Test("Contract: .dropWhileBusy drops the values that arrive while a call runs")
  func dropWhileBusy() async {
    let event = SharedEvent<Int>()
    let script = Script()
    let owner = LifetimeTracker().make()
    let token = event.observe(with: owner, policy: .dropWhileBusy) { _, value async in await script.handle(value) }
    event.notifyObservers(1)
    await script.waitFor("start 1")
    event.notifyObservers(2)
    event.notifyObservers(3)
    await script.open(1)
    await script.waitFor("end 1")
    // Idle again: the next value runs. (`end 1` is logged inside the call; the runner is idle
    // once the call has returned, so the gate of 4 is opened first and 4 may have to wait
    // for its turn, but it is never dropped once 1 has returned.)
    await script.open(4)
    await awaitIdle(event, script: script, value: 4)
    #expect(await script.lines == ["start 1", "end 1", "start 4", "end 4"])
    token.dispose()
  }

  @Test("Contract: disposing cancels the call in flight, drops what waits, and releases the handler and owner")
  func disposeCancels() async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let script = Script()
    var owner: Tracked? = tracker.make()
    var captured: Tracked? = tracker.make()
    let bag = DisposeBag()
    event.observe(with: owner!, policy: .serial) { [captured] _, value async in
      captured?.touch()
      await untilCancelled(script, value)
    }.disposed(by: bag)
    event.notifyObservers(1)
    event.notifyObservers(2)
    await script.waitFor("start 1")
    owner = nil  // the running call holds it
    captured = nil  // the handler holds it
    bag.dispose()
    await script.waitFor("cancelled 1")
    #expect(event.observerCount == 0)
    // The cancelled task lets go of the handler and the owner once it has returned.
    await yieldUntil { tracker.liveCount == 0 }
    #expect(await script.lines == ["start 1", "cancelled 1"])
  }

  @Test("Contract: the owner is held weakly between values; once it has gone, the next value ends the subscription")
  func ownerWeakBetweenValues() async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let script = Script()
    var owner: Tracked? = tracker.make()
    event.observe(with: owner!, policy: .serial) { _, value async in await script.log("handled \(value)") }
    event.notifyObservers(1)
    await script.waitFor("handled 1")
    owner = nil
    await yieldUntil { tracker.liveCount == 0 }
    event.notifyObservers(2)
    await yieldUntil { event.observerCount == 0 }
    #expect(await script.lines == ["handled 1"])
  }

  @Test("Contract: an actor owns an async subscription; the handler runs isolated to it")
  func actorOwner() async {
    let event = SharedEvent<Int>()
    let loader = Loader()
    await loader.start(event)
    event.notifyObservers(1)
    event.notifyObservers(2)
    await loader.script.waitFor("loaded 2")
    #expect(await loader.loaded == [1, 2])
  }

  @Test("Contract: a main-actor caller's async handler runs on the main actor")
  @MainActor
  func mainActorHandler() async {
    let event = SharedEvent<Int>()
    let model = SearchModel()
    model.bind(event)
    event.notifyObservers(7)
    await model.script.waitFor("results 7")
    #expect(model.results == [7])
  }
}

actor Loader {
  var loaded: [Int] = []
  let script = Script()

  func start(_ event: SharedEvent<Int>) {
    event.observe(with: self, policy: .serial) { loader, value async in
      loader.loaded.append(value)
      await loader.script.log("loaded \(value)")
    }
  }
}

@MainActor final class SearchModel {
  var results: [Int] = []
  let script = Script()
  let bag = DisposeBag()

  func bind(_ event: SharedEvent<Int>) {
    event.observe(with: self, policy: .latest) { model, value async in
      MainActor.assertIsolated()
      model.results.append(value)
      await model.script.log("results \(value)")
    }.disposed(by: bag)
  }
}

/// Waits, yielding, until `condition` holds: for releases that happen as a task returns.
func yieldUntil(_ condition: @Sendable () -> Bool) async {
  for _ in 0..<100_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("condition not met after 100,000 yields")
}

/// Notifies `value` until a call for it has ended: a .dropWhileBusy runner may still be
/// finishing the previous call when the test sends it.
func awaitIdle(_ event: SharedEvent<Int>, script: Script, value: Int) async {
  for _ in 0..<100_000 {
    event.notifyObservers(value)
    if await script.lines.contains("start \(value)") { break }
    await Task.yield()
  }
  await script.waitFor("end \(value)")
}
