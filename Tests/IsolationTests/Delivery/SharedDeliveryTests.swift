import Dispatch
import ObservableKit
import Testing
import TestSupport

/// The shared family's `observe { }` as main-actor, actor and nonisolated code write it: a
/// handler runs synchronously where it may (on the main actor when notified there; on the
/// notifying thread when nonisolated) on every delivery path, and a value that must hop
/// waits in its subscription's mailbox, one job draining a burst. CI runs this target on
/// both delivery paths (see `DeliveryPathTests`). Part of the Contracts section "Isolation".
@Suite("Shared delivery")
@MainActor
struct SharedDeliveryTests {
  /// The task a call runs in, if any: the same as the caller's means no task was started.
  nonisolated static func currentTaskHash() -> Int? {
    withUnsafeCurrentTask { $0?.hashValue }
  }

  @Test("Contract: a main-actor observe handler runs before notify, set or post returns, on every delivery path, in the caller's task")
  func mainActorIsSynchronousOnEveryPath() {
    let recorder = Recorder()
    let event = SharedEvent<Int>()
    let property = SharedProperty(10)
    let hub = SharedEventHub()
    let message = HubMessage<Int>("shared.delivery.sync")
    let caller = Self.currentTaskHash()
    var tasks: Set<Int?> = []
    let tokens = [
      event.observe { recorder.values.append($0); tasks.insert(Self.currentTaskHash()) },
      property.observe { recorder.values.append($0) },
      property.observeChanges { recorder.values.append($0 + 1) },
      property.readOnly.map { $0 * 2 }.observe { recorder.values.append($0) },
      hub.observe(message) { recorder.values.append($0) },
    ]
    #expect(recorder.values == [10, 20], "the replays ran before observe returned")
    event.notifyObservers(1)
    property.value = 2
    hub.post(message, 3)
    #expect(recorder.values == [10, 20, 1, 2, 3, 4, 3], "each ran before its notify, set or post returned")
    #expect(tasks == [caller], "no task was started for the call")
    tokens.forEach { $0.dispose() }
  }

  struct Large: Sendable, Equatable {
    var name: String
    var values: [Int]
    var point: (x: Double, y: Double, z: Double)
    static func == (a: Large, b: Large) -> Bool {
      a.name == b.name && a.values == b.values && a.point == b.point
    }
  }

  @MainActor
  final class Model {
    var heard: [Large] = []
    func hear(_ value: Large) { heard.append(value) }
  }

  @Test("A main-actor handler called synchronously gets its captures, large values and method references intact")
  func synchronousCallKeepsItsFunction() {
    let event = SharedEvent<Large>()
    let model = Model()
    let local = Recorder()
    let tokens = [
      event.observe(model.hear),
      event.observe { local.values.append($0.values.count) },
      event.readOnly.map(\.values).observe { model.heard.append(Large(name: "mapped", values: $0, point: (0, 0, 0))) },
    ]
    let value = Large(name: "a", values: [1, 2, 3], point: (1, 2, 3))
    event.notifyObservers(value)
    #expect(model.heard == [value, Large(name: "mapped", values: [1, 2, 3], point: (0, 0, 0))])
    #expect(local.values == [3])
    tokens.forEach { $0.dispose() }
    event.notifyObservers(value)
    #expect(local.values == [3], "nothing after dispose")
  }

  @Test("Contract: a nonisolated observe handler runs on the notifying thread before notify returns, on every path; calls never overlap and keep each thread's order")
  nonisolated func nonisolatedIsSynchronousOnEveryPath() {
    let event = SharedEvent<Int>()
    let log = ValueLog<Int>()
    let inside = Guarded(0)
    let overlapped = Guarded(false)
    let token = event.observe { value in
      if inside.withLock({ $0 += 1; return $0 }) > 1 { overlapped.value = true }
      log.record(value)
      inside.withLock { $0 -= 1 }
    }
    event.notifyObservers(-1)
    #expect(log.values == [-1], "ran before notify returned")
    race(threads: 2) { thread in
      for value in 0..<500 { event.notifyObservers(thread * 1_000 + value) }
    }
    // race returned: every notification has returned, so every value was delivered.
    #expect(log.count == 1_001, "every value, once, before the notifications returned")
    for thread in 0..<2 {
      let mine = log.values.filter { $0 >= 0 && $0 / 1_000 == thread }
      #expect(mine == mine.sorted(), "the values of one notifying thread keep their order")
    }
    #expect(!overlapped.value, "calls never overlap")
    token.dispose()
  }

  @Test("Contract: a burst from another thread waits in the mailbox and one main-actor job drains it, in order")
  func burstToTheMainActorIsOneJob() async {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let token = event.observe { recorder.values.append($0) }
    // This test holds the main actor while the burst is made: everything waits.
    race(threads: 1) { _ in
      for value in 0..<10_000 { event.notifyObservers(value) }
    }
    #expect(recorder.values.isEmpty, "enqueued: the main actor is busy")
    #expect((token as? any DrainCounting)?.drainsStarted == 1, "one job for the burst")
    await waitUntil { recorder.values.count == 10_000 }
    #expect(recorder.values == Array(0..<10_000), "in order, once each")
    #expect((token as? any DrainCounting)?.drainsStarted == 1, "still one job")
    event.notifyObservers(10_000)
    #expect(recorder.values.last == 10_000, "nothing waits: the next value on the main actor runs at once")
    token.dispose()
  }

  @Test("Contract: an event released while values wait for a main-actor handler: they are delivered, then the handler is released; the disposable reports isDisposed at once")
  func releasedEventDeliversWhatWaits() async {
    var event: SharedEvent<Int>? = SharedEvent<Int>()
    let recorder = Recorder()
    let tracker = LifetimeTracker()
    let token = event!.observe { [tracked = tracker.make()] value in
      tracked.touch()
      recorder.values.append(value)
    }
    // This test holds the main actor while the burst is made: everything waits.
    // Weak: the race's thread may release its closure after `race` returns, and the event
    // must deinitialize when this test lets it go.
    race(threads: 1) { [weak event] _ in
      for value in 0..<100 { event?.notifyObservers(value) }
    }
    #expect(recorder.values.isEmpty, "enqueued: the main actor is busy")
    event = nil
    #expect(token.isDisposed, "the event's storage ended the subscription")
    #expect(tracker.liveCount == 1, "the handler waits to deliver what was taken in")
    await waitUntil { recorder.values.count == 100 }
    #expect(recorder.values == Array(0..<100), "what was taken in is delivered, in order")
    await waitUntil { tracker.liveCount == 0 }
    token.dispose()
  }

  @Test("Contract: dispose() drops what waits for a main-actor handler and releases the handler at once")
  func disposeReleasesTheWaitingHandlerAtOnce() {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let tracker = LifetimeTracker()
    let token = event.observe { [tracked = tracker.make()] value in
      tracked.touch()
      recorder.values.append(value)
    }
    race(threads: 1) { _ in
      for value in 0..<100 { event.notifyObservers(value) }
    }
    token.dispose()
    #expect(tracker.liveCount == 0, "released by dispose(), not by the pending job")
    #expect(recorder.values.isEmpty)
  }

  @Test("Contract: a value notified on the main thread waits behind the ones that wait")
  func mainThreadValueWaitsBehindABurst() async {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let token = event.observe { recorder.values.append($0) }
    race(threads: 1) { _ in
      for value in 0..<100 { event.notifyObservers(value) }
    }
    event.notifyObservers(100)
    #expect(recorder.values.isEmpty, "the main-thread value did not overtake the burst")
    await waitUntil { recorder.values.count == 101 }
    #expect(recorder.values == Array(0...100))
    token.dispose()
  }

  @Test("Contract: a value that comes during a main-actor handler's synchronous call, from another thread, is delivered right after that call, before notify returns")
  func valueFromAnotherThreadDuringTheCallRunsRightAfterIt() {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let token = event.observe { value in
      recorder.values.append(value)
      // Another thread notifies while this call runs, and has returned when it ends.
      if value == 1 { race(threads: 1) { _ in event.notifyObservers(2) } }
      recorder.values.append(-value)
    }
    event.notifyObservers(1)
    #expect(recorder.values == [1, -1, 2, -2], "after the call, not inside it, and before notify returned")
    event.notifyObservers(3)
    #expect(recorder.values == [1, -1, 2, -2, 3, -3], "nothing waits: the next value runs at once")
    token.dispose()
  }

  @Test("Contract: a value that comes re-entrantly during a main-actor handler's synchronous call (through a merge) runs after the call, before notify returns")
  func reentrantValueRunsAfterTheCall() {
    let first = SharedEvent<Int>()
    let second = SharedEvent<Int>()
    let recorder = Recorder()
    let token = first.merge(with: second).observe { value in
      recorder.values.append(value)
      if value == 1 { second.notifyObservers(2) }
      recorder.values.append(-value)
    }
    first.notifyObservers(1)
    #expect(recorder.values == [1, -1, 2, -2], "calls never overlap; the value waited for the call")
    second.notifyObservers(3)
    #expect(recorder.values == [1, -1, 2, -2, 3, -3])
    token.dispose()
  }

  @Test("Contract: dispose() drops what waits for the main actor; nothing is delivered after it returns")
  func disposeDropsTheBurst() async {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let token = event.observe { recorder.values.append($0) }
    race(threads: 1) { _ in
      for value in 0..<1_000 { event.notifyObservers(value) }
    }
    token.dispose()
    // A later subscription's job runs after the disposed one's would have.
    let marker = Recorder()
    let after = event.observe { marker.values.append($0) }
    race(threads: 1) { _ in event.notifyObservers(-1) }
    await waitUntil { marker.values == [-1] }
    #expect(recorder.values.isEmpty, "the values that waited were dropped")
    after.dispose()
  }

  @Test("Contract: a burst to an actor-isolated handler is drained by one job on the actor, in order")
  nonisolated func burstToAnActorIsOneJob() async {
    let event = SharedEvent<Int>()
    let counter = BurstCounter()
    let gate = DispatchSemaphore(value: 0)
    await counter.observe(event)
    // Hold the actor while the burst is made, so that everything waits.
    async let held: Void = counter.hold(gate)
    await counter.waitUntilHeld()
    race(threads: 1) { _ in
      for value in 0..<5_000 { event.notifyObservers(value) }
    }
    gate.signal()
    await held
    await counter.waitFor(5_000)
    #expect(await counter.values == Array(0..<5_000), "in order, once each")
    #expect(await counter.drainsStarted == 1, "one job for the burst")
    await counter.dispose()
  }

  @Test("Contract: an owner-bound handler isolated to an actor runs there, in order; once the owner has gone, nothing more and the next value ends it")
  nonisolated func ownerBoundBurstToAnActor() async {
    // Not holding the actor, as `burstToAnActorIsOneJob` does: two tests that each block a
    // thread of the cooperative pool would starve it on two cores.
    final class Owner: Sendable {}
    let event = SharedEvent<Int>()
    let counter = BurstCounter()
    var owner: Owner? = Owner()
    await counter.observe(event, with: owner!)
    race(threads: 1) { _ in
      for value in 0..<5_000 { event.notifyObservers(value) }
    }
    await counter.waitFor(5_000)
    #expect(await counter.values == Array(0..<5_000), "in order, once each, on the actor")
    weak let released = owner
    owner = nil
    #expect(released == nil, "nothing waits, so nothing keeps the owner")
    event.notifyObservers(5_000)
    #expect(event.observerCount == 0, "the next value ended the subscription")
    #expect(await counter.values.count == 5_000, "nothing delivered once the owner has gone")
  }
}

/// An actor whose `observe { }` handler is isolated to it.
actor BurstCounter {
  var values: [Int] = []
  private var token: (any Disposable)?
  /// Set once ``hold(_:)`` blocks the actor; read from outside it.
  nonisolated let isHeld = Guarded(false)

  func observe(_ event: SharedEvent<Int>) {
    token = event.observe { self.values.append($0) }
  }

  /// An owner-bound handler isolated to this actor, whose owner is another object.
  func observe<Owner: AnyObject & Sendable>(_ event: SharedEvent<Int>, with owner: Owner) {
    token = event.observe(with: owner) { _, value in
      if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) { self.preconditionIsolated() }
      self.values.append(value)
    }
  }

  /// Blocks the actor until `gate` is signalled.
  func hold(_ gate: DispatchSemaphore) {
    isHeld.value = true
    gate.wait()
  }

  nonisolated func waitUntilHeld() async {
    while !isHeld.value { await Task.yield() }
  }

  func waitFor(_ count: Int) async {
    for _ in 0..<100_000 where values.count < count { await Task.yield() }
  }

  var drainsStarted: Int? { (token as? any DrainCounting)?.drainsStarted }

  func dispose() { token?.dispose() }
}
