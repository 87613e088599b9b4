import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: async handlers with a policy.

private final class QALoader: Sendable {
  let started = ValueLog<Int>()
  let finished = ValueLog<Int>()
  let cancelled = ValueLog<Int>()
}

@Suite("QA acceptance: async handlers")
struct QAAsyncHandlerAcceptanceTests {
  /// A gate the handler waits on, opened by the test.
  final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    init() { (stream, continuation) = AsyncStream.makeStream() }
    func open() { continuation.yield() }
    func pass() async {
      var iterator = stream.makeAsyncIterator()
      _ = await iterator.next()
    }
  }

  @Test func serialRunsEveryValueInOrderOneAtATime() async {
    let event = SharedEvent<Int>()
    let loader = QALoader()
    let running = Guarded(0), maxRunning = Guarded(0)
    let done = AsyncStream<Void>.makeStream()
    let token = event.observe(with: loader, policy: .serial) { loader, value async in
      let now = running.withLock { $0 += 1; return $0 }
      maxRunning.withLock { $0 = max($0, now) }
      loader.started.record(value)
      await Task.yield()
      running.withLock { $0 -= 1 }
      loader.finished.record(value)
      if value == 20 { done.continuation.yield() }
    }
    for v in 1...20 { event.notifyObservers(v) }
    var it = done.stream.makeAsyncIterator()
    _ = await it.next()
    #expect(loader.finished.values == Array(1...20))
    #expect(maxRunning.value == 1)
    token.dispose()
  }

  @Test func latestCancelsTheCallInFlight() async {
    let event = SharedEvent<Int>()
    let loader = QALoader()
    let gate = Gate()
    let started = AsyncStream<Int>.makeStream()
    let finished = AsyncStream<Int>.makeStream()
    let token = event.observe(with: loader, policy: .latest) { loader, value async in
      started.continuation.yield(value)
      if value == 1 {
        await gate.pass()
        if Task.isCancelled { loader.cancelled.record(value) }
      }
      loader.finished.record(value)
      finished.continuation.yield(value)
    }
    var startedIt = started.stream.makeAsyncIterator()
    event.notifyObservers(1)
    #expect(await startedIt.next() == 1)
    event.notifyObservers(2)
    event.notifyObservers(3)
    gate.open()
    var finishedIt = finished.stream.makeAsyncIterator()
    #expect(await finishedIt.next() == 1)
    #expect(await finishedIt.next() == 3)
    #expect(loader.cancelled.values == [1])
    #expect(loader.finished.values == [1, 3])
    token.dispose()
  }

  @Test func dropWhileBusyDropsWhatArrivesWhileRunning() async {
    let event = SharedEvent<Int>()
    let loader = QALoader()
    let gate = Gate()
    let started = AsyncStream<Int>.makeStream()
    let finished = AsyncStream<Int>.makeStream()
    let token = event.observe(with: loader, policy: .dropWhileBusy) { loader, value async in
      started.continuation.yield(value)
      if value == 1 { await gate.pass() }
      loader.finished.record(value)
      finished.continuation.yield(value)
    }
    var startedIt = started.stream.makeAsyncIterator()
    event.notifyObservers(1)
    #expect(await startedIt.next() == 1)
    event.notifyObservers(2)
    event.notifyObservers(3)
    gate.open()
    var finishedIt = finished.stream.makeAsyncIterator()
    #expect(await finishedIt.next() == 1)
    event.notifyObservers(4)
    #expect(await finishedIt.next() == 4)
    #expect(loader.finished.values == [1, 4])
    token.dispose()
  }

  @Test(arguments: ["dispose", "bag"])
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func endingCancelsTheCallInFlight(how: String) async {
    let event = SharedEvent<Int>()
    let tracker = LifetimeTracker()
    let owner = QAOwner(tracker.make())
    let bag = DisposeBag()
    let started = AsyncStream<Void>.makeStream()
    let ended = AsyncStream<Bool>.makeStream()
    let calls = Guarded(0)
    let token = event.observe(with: owner, policy: .serial) { _, _ async in
      calls.withLock { $0 += 1 }
      started.continuation.yield()
      // Waits until cancelled; a watchdog ends it after 10 s.
      let clock = ContinuousClock()
      let deadline = clock.now.advanced(by: .seconds(10))
      while !Task.isCancelled && clock.now < deadline { await Task.yield() }
      ended.continuation.yield(Task.isCancelled)
    }
    if how == "bag" { token.disposed(by: bag) }
    event.notifyObservers(1)
    event.notifyObservers(2)  // waits behind 1; dropped by the end
    var startedIt = started.stream.makeAsyncIterator()
    _ = await startedIt.next()
    if how == "bag" { bag.dispose() } else { token.dispose() }
    var endedIt = ended.stream.makeAsyncIterator()
    #expect(await endedIt.next() == true, "the call in flight was not cancelled")
    #expect(event.observerCount == 0)
    event.notifyObservers(3)
    #expect(calls.value == 1)
  }

  /// The owner is held weakly between values: released while values wait, it is never
  /// called again, and the subscription ends.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func ownerReleasedBetweenValuesEndsTheSubscription() async {
    let event = SharedEvent<Int>()
    let tracker = LifetimeTracker()
    var owner: QAOwner? = QAOwner(tracker.make())
    let gate = Gate()
    let started = AsyncStream<Int>.makeStream()
    let calls = ValueLog<Int>()
    event.observe(with: owner!, policy: .serial) { _, value async in
      calls.record(value)
      started.continuation.yield(value)
      if value == 1 { await gate.pass() }
    }
    var startedIt = started.stream.makeAsyncIterator()
    event.notifyObservers(1)
    #expect(await startedIt.next() == 1)
    event.notifyObservers(2)
    owner = nil  // the running call still holds it
    gate.open()
    // A watchdog, not a sleep: the owner goes once the running call returned.
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(10))
    while tracker.liveCount > 0 && clock.now < deadline { await Task.yield() }
    #expect(tracker.liveCount == 0, "the subscription keeps the owner alive between values")
    event.notifyObservers(3)
    #expect(calls.values == [1])
    #expect(event.observerCount == 0)
  }
}

private final class QAOwner: Sendable {
  let tracked: Tracked
  init(_ tracked: Tracked) { self.tracked = tracked }
}
