import Foundation
import ObservableKit
import Testing
import TestSupport

/// The shared family away from the main actor: nonisolated handlers, actors, the fast path.
@Suite("Shared family")
struct SharedTests {
  @Test("Contract: a nonisolated handler runs on the notifying thread before notify returns")
  func nonisolatedIsSynchronous() {
    let event = SharedEvent<Int>()
    let threads = ValueLog<UInt>()
    let token = event.observe { _ in threads.record(currentThreadID()) }
    let notifier = Guarded<UInt>(0)
    let heardBeforeReturn = Guarded(false)
    withWatchdog("notify on another thread") {
      notifier.value = currentThreadID()
      event.notifyObservers(1)
      heardBeforeReturn.value = threads.count == 1
    }
    #expect(heardBeforeReturn.value)
    #expect(threads.values == [notifier.value])
    token.dispose()
  }

  @Test("Contract: one subscription's calls never overlap and keep the order of notifications")
  func callsNeverOverlap() {
    let event = SharedEvent<Int>()
    let inside = Guarded(0)
    let overlapped = Guarded(false)
    let heard = Tally()
    let token = event.observe { _ in
      if inside.withLock({ $0 += 1; return $0 }) > 1 { overlapped.value = true }
      heard.increment()
      inside.withLock { $0 -= 1 }
    }
    race(threads: 4) { _ in for value in 0..<500 { event.notifyObservers(value) } }
    #expect(heard.value == 2_000)
    #expect(!overlapped.value)
    token.dispose()
  }

  @Test("Contract: a handler registered in an actor runs isolated to it, in order")
  func actorHandler() async {
    actor Counter {
      var seen: [Int] = []
      var token: (any Disposable)?
      func start(_ event: SharedEvent<Int>) {
        token = event.observe { value in
          self.assertIsolated()
          self.seen.append(value)
        }
      }
      func count() -> Int { seen.count }
      /// Ends the subscription, whose handler captures this actor.
      func stop() { token?.dispose() }
    }
    let event = SharedEvent<Int>()
    let counter = Counter()
    await counter.start(event)
    for value in 1...20 { event.notifyObservers(value) }
    for _ in 0..<100_000 where await counter.count() < 20 { await Task.yield() }
    #expect(await counter.seen == Array(1...20))
    await counter.stop()
  }

  @Test("Contract: an actor that keeps the token of its own subscription is released once it disposes it")
  func actorReleasedAfterDispose() async {
    actor Holder {
      var heard = 0
      var token: (any Disposable)?
      func start(_ event: SharedEvent<Int>) { token = event.observe { _ in self.heard += 1 } }
      func stop() { token?.dispose() }
    }
    let event = SharedEvent<Int>()
    weak var released: Holder?
    do {
      let holder = Holder()
      released = holder
      await holder.start(event)
      event.notifyObservers(1)
      await holder.stop()
    }
    for _ in 0..<100_000 where released != nil { await Task.yield() }
    #expect(released == nil, "dispose() breaks the cycle actor → token → delivery → actor")
  }

  @Test("Contract: observeNonisolated is the plain fast path, concurrent across threads")
  func observeNonisolated() {
    let event = SharedEvent<Int>()
    let total = Tally()
    let token = event.observeNonisolated { total.increment(by: $0) }
    race(threads: 4) { _ in for _ in 0..<500 { event.notifyObservers(1) } }
    #expect(total.value == 2_000)
    token.dispose()
    event.notifyObservers(1)
    #expect(total.value == 2_000)
  }

  @Test("Contract: a shared property replays, then delivers every set, ending on the final value")
  func sharedProperty() {
    let property = SharedProperty(0)
    let log = ValueLog<Int>()
    let token = property.observe { log.record($0) }
    #expect(log.values == [0])
    race(threads: 4) { _ in for _ in 0..<250 { property.modify { $0 += 1 } } }
    #expect(property.value == 1_000)
    #expect(log.values.last == 1_000)
    #expect(log.values == log.values.sorted(), "never back in time")
    token.dispose()
  }

  @Test("Contract: observeChanges and subscribe do not replay; subscribe passes the owner and both values")
  func changesAndSubscribe() {
    final class Owner: Sendable {}
    let property = SharedProperty(1)
    let changes = ValueLog<Int>()
    let pairs = ValueLog<String>()
    let owner = Owner()
    let token = property.observeChanges { changes.record($0) }
    property.subscribe(owner) { _, newValue, oldValue in pairs.record("\(oldValue)→\(newValue)") }
    property.value = 2
    #expect(changes.values == [2])
    #expect(pairs.values == ["1→2"])
    property.unsubscribe(owner)
    property.value = 3
    #expect(pairs.values == ["1→2"])
    token.dispose()
  }

  @Test("Contract: owner-bound observation ends when the owner goes")
  func ownerBound() {
    final class Owner: Sendable {}
    let event = SharedEvent<Int>()
    let log = ValueLog<Int>()
    var owner: Owner? = Owner()
    event.observe(with: owner!) { _, value in log.record(value) }
    event.notifyObservers(1)
    owner = nil
    event.notifyObservers(2)
    #expect(log.values == [1])
    #expect(event.observerCount == 0)
  }

  @Test("Contract: operators and read-only views of shared sources")
  func operators() {
    let event = SharedEvent<Int>()
    let log = ValueLog<String>()
    let view: SharedReadOnlyEvent<Int> = event.readOnly
    let token = view.map { $0 * 10 }.filter { $0 > 10 }.compactMap { "\($0)" }.removeDuplicates()
      .observe { log.record($0) }
    for value in [1, 2, 2, 3] { event.notifyObservers(value) }
    #expect(log.values == ["20", "30"])
    token.dispose()
    #expect(!event.isObserved)
  }

  @Test("Contract: take and once on shared sources end the subscription at the last value, from any thread")
  func takeAndOnce() async {
    let event = SharedEvent<Int>()
    let log = ValueLog<Int>()
    let first = event.once().observeNonisolated { log.record($0) }
    let firstTwo = event.filter { $0 > 1 }.take(2).observeNonisolated { log.record($0 * 100) }
    #expect(event.observerCount == 2)
    // Several threads race for the one value `once` lets through.
    await withTaskGroup(of: Void.self) { group in
      for value in 1...8 { group.addTask { event.notifyObservers(value) } }
    }
    #expect(first.isDisposed && firstTwo.isDisposed)
    #expect(event.observerCount == 0)
    #expect(log.values.filter { $0 < 100 }.count == 1)
    #expect(log.values.filter { $0 >= 100 }.count == 2)
    #expect(event.take(0).observeNonisolated { log.record($0) }.isDisposed)
  }

  @Test("Contract: values of a shared event, from another task")
  func values() async {
    let event = SharedEvent<Int>()
    var iterator = event.values.makeAsyncIterator()
    await Task.detached { for value in 1...3 { event.notifyObservers(value) } }.value
    var seen: [Int] = []
    for _ in 1...3 { if let value = await iterator.next() { seen.append(value) } }
    #expect(seen == [1, 2, 3])
  }

  @Test("Contract: a disposed shared subscription releases its handler")
  func releasesHandler() {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let token = Self.observe(event, capturing: tracker.make())
    event.notifyObservers(1)
    token.dispose()
    #expect(tracker.liveCount == 0)
  }

  private static func observe(_ event: SharedEvent<Int>, capturing tracked: Tracked) -> any Disposable {
    event.observe { _ in tracked.touch() }
  }
}
