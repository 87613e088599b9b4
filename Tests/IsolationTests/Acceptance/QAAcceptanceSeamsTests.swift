import Dispatch
import ObservableKit
import Testing
import TestSupport

#if canImport(Observation)
import Observation
#endif

// Acceptance checks of issue 20, written as users write code.

// MARK: - Actors own subscriptions

/// An actor that owns subscriptions made in its init, and can be waited on.
private actor Counter {
  var count = 0
  var heard: [Int] = []
  let tracked: Tracked
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  init(event: SharedEvent<Int>, property: SharedProperty<Int>, hub: SharedEventHub, message: HubMessage<Int>, tracked: Tracked) {
    self.tracked = tracked
    event.observe(with: self) { owner, value in owner.count += value; owner.note(value) }
    property.observe(with: self) { owner, value in owner.count += value; owner.note(value) }
    hub.observe(message, with: self) { owner, value in owner.count += value; owner.note(value) }
  }

  init(tracked: Tracked) { self.tracked = tracked }

  func subscribe(to property: SharedProperty<Int>) {
    property.subscribe(self) { owner, value, _ in owner.count += value; owner.note(value) }
  }

  func observe(_ event: SharedEvent<Int>) {
    event.observe(with: self) { owner, value in owner.count += value; owner.note(value) }
  }

  func note(_ value: Int) {
    heard.append(value)
    if let waiter, heard.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func wait(for count: Int) async {
    if heard.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("QA acceptance: actors own subscriptions (issue 20)")
struct QAActorOwnerAcceptanceTests {
  @Test(arguments: ["event", "property", "hub"])
  func actorInitSubscriptionDeliversInOrderAndEndsWithTheActor(source: String) async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let property = SharedProperty(0)
    let hub = SharedEventHub()
    let message = HubMessage<Int>("n")
    var counter: Counter? = Counter(
      event: source == "event" ? event : SharedEvent(),
      property: source == "property" ? property : SharedProperty(0),
      hub: source == "hub" ? hub : SharedEventHub(),
      message: message, tracked: tracker.make())
    for v in 1...50 {
      switch source {
      case "event": event.notifyObservers(v)
      case "property": property.value = v
      default: hub.post(message, v)
      }
    }
    // 50 values and one property's replay of 0.
    await counter!.wait(for: 51)
    #expect(await counter!.heard.filter { $0 != 0 } == Array(1...50), "values out of order")
    #expect(await counter!.count == 50 * 51 / 2)
    counter = nil
    #expect(tracker.liveCount == 0, "a subscription keeps the actor alive")
    event.notifyObservers(1)
    property.value = 51
    hub.post(message, 1)
    #expect(event.observerCount == 0)
    #expect(property.observerCount == 0)
    #expect(hub.observerCount(of: message) == 0)
  }

  @Test func actorMethodSubscriptionsWork() async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let property = SharedProperty(5)
    var counter: Counter? = Counter(tracked: tracker.make())
    await counter!.observe(event)
    await counter!.subscribe(to: property)
    for v in 1...100 { event.notifyObservers(v) }
    property.value = 1007
    await counter!.wait(for: 101)
    let heard = await counter!.heard
    #expect(heard.filter { $0 <= 100 } == Array(1...100), "the event's values out of order")
    #expect(heard.contains(1007) && heard.count == 101)
    #expect(await counter!.count == 5050 + 1007)
    property.unsubscribe(counter!)
    #expect(property.observerCount == 0)
    counter = nil
    #expect(tracker.liveCount == 0)
    event.notifyObservers(1)
    #expect(event.observerCount == 0)
  }
}

// MARK: - Async handlers with a policy

private final class QALoader: Sendable {
  let started = ValueLog<Int>()
  let finished = ValueLog<Int>()
  let cancelled = ValueLog<Int>()
}

@Suite("QA acceptance: async handlers (issue 20)")
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
  /// called again, and the registration ends.
  @Test func ownerReleasedBetweenValuesEndsTheRegistration() async {
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

// MARK: - values, Diagnostics

@Suite("QA acceptance: smaller ones (issue 20)")
struct QASmallerOnesAcceptanceTests {
  @Test func valuesSubscribesWhenItsIteratorIsMade() async {
    let event = SharedEvent<Int>()
    let values = event.values
    event.notifyObservers(0)  // before the iterator: documented as not heard
    var iterator = values.makeAsyncIterator()
    event.notifyObservers(1)
    event.notifyObservers(2)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
  }

  @Test func liveSubscriptionCountPrints() {
    let count: Int = Diagnostics.liveSubscriptionCount
    print("live subscriptions:", Diagnostics.liveSubscriptionCount)
    #expect(count >= 0)
  }
}

// MARK: - ReadOnlyProperty(tracking:) over an @Observable model

#if canImport(Observation)
@MainActor @Observable private final class Person {
  var first = "Ada"
  var last = "Lovelace"
}

@Suite("QA acceptance: ReadOnlyProperty(tracking:) (issue 20)")
@MainActor
struct QATrackingAcceptanceTests {
  /// Waits for the next value a handler hears.
  final class Heard<Value> {
    var values: [Value] = []
    var waiter: (Int, CheckedContinuation<Void, Never>)?
    func add(_ value: Value) {
      values.append(value)
      if let (n, c) = waiter, values.count >= n { waiter = nil; c.resume() }
    }
    func wait(for n: Int) async {
      if values.count >= n { return }
      await withCheckedContinuation { waiter = (n, $0) }
    }
  }

  @Test func currentValueAtOnceThenRecomputesAfterChanges() async {
    let model = Person()
    let fullName = ReadOnlyProperty(tracking: { model.first + " " + model.last })
    #expect(fullName.value == "Ada Lovelace")
    let heard = Heard<String>()
    let token = fullName.observe { heard.add($0) }
    #expect(heard.values == ["Ada Lovelace"])
    model.first = "Grace"
    model.last = "Hopper"
    await heard.wait(for: 2)
    #expect(heard.values.last == "Grace Hopper")
    #expect(!heard.values.contains("Grace Lovelace") || heard.values.last == "Grace Hopper")
    model.first = "Alan"
    await heard.wait(for: heard.values.count + 1)
    #expect(heard.values.last == "Alan Hopper")
    token.dispose()
  }

  @Test func operatorsOwnersAndValuesWork() async {
    final class Label { var text = "" }
    let model = Person()
    let fullName = ReadOnlyProperty(tracking: { model.first + " " + model.last })
    let label = Label()
    let lengths = Heard<Int>()
    let bag = DisposeBag()
    fullName.map(\.count).removeDuplicates().observe { lengths.add($0) }.disposed(by: bag)
    fullName.observe(with: label) { label, name in label.text = name }.disposed(by: bag)
    #expect(label.text == "Ada Lovelace")
    #expect(lengths.values == [12])
    model.first = "Ed"
    await lengths.wait(for: 2)
    #expect(lengths.values == [12, 11])
    #expect(label.text == "Ed Lovelace")
    for await name in fullName.values {
      #expect(name == "Ed Lovelace")
      break
    }
    bag.dispose()
  }

  @Test func disposingTheLastObserverStopsTracking() async {
    let model = Person()
    let reads = Guarded(0)
    let fullName = ReadOnlyProperty(tracking: {
      reads.withLock { $0 += 1 }
      return model.first + " " + model.last
    })
    let heard = Heard<String>()
    let token = fullName.observe { heard.add($0) }
    model.first = "B"
    await heard.wait(for: 2)
    token.dispose()
    let before = reads.value
    model.first = "C"
    model.last = "D"
    await drainMain()
    #expect(reads.value == before, "a recompute ran after the last observer was disposed")
    #expect(heard.values == ["Ada Lovelace", "B Lovelace"])
  }

  private func drainMain() async {
    for _ in 0..<3 {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
      }
    }
  }
}
#endif

// MARK: - An actor owning an async subscription

private actor Library {
  var loaded: [Int] = []
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
  let tracked: Tracked

  init(ids: SharedEvent<Int>, tracked: Tracked) {
    self.tracked = tracked
    ids.observe(with: self, policy: .serial) { library, id async in
      await Task.yield()
      library.loaded.append(id)
      library.check()
    }
  }

  private func check() {
    if let waiter, loaded.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func wait(for count: Int) async {
    if loaded.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("QA acceptance: an actor owning an async subscription (issue 20)")
struct QAActorAsyncOwnerAcceptanceTests {
  @Test func serialAsyncHandlerIsolatedToTheActorInOrderAndEndsWithIt() async {
    let tracker = LifetimeTracker()
    let ids = SharedEvent<Int>()
    var library: Library? = Library(ids: ids, tracked: tracker.make())
    for id in 1...30 { ids.notifyObservers(id) }
    await library!.wait(for: 30)
    #expect(await library!.loaded == Array(1...30))
    library = nil
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(10))
    while tracker.liveCount > 0 && clock.now < deadline { await Task.yield() }
    #expect(tracker.liveCount == 0, "the async subscription keeps the actor alive")
    ids.notifyObservers(31)
    #expect(ids.observerCount == 0)
  }
}

@Suite("QA acceptance: owners of async subscriptions end them at the next value (issue 20)")
@MainActor
struct QAAsyncOwnerGoneAcceptanceTests {
  @MainActor final class ViewModel {
    var loaded: [Int] = []
    let tracked: Tracked
    init(_ tracked: Tracked) { self.tracked = tracked }
  }

  @Test func confinedOwnerGoneEndsTheRegistrationAtTheNextValue() async {
    let tracker = LifetimeTracker()
    let ids = ObservableEvent<Int>()
    var viewModel: ViewModel? = ViewModel(tracker.make())
    ids.observe(with: viewModel!, policy: .serial) { viewModel, id async in viewModel.loaded.append(id) }
    viewModel = nil
    #expect(tracker.liveCount == 0)
    ids.notifyObservers(1)
    #expect(ids.observerCount == 0, "a value that finds the owner gone leaves the registration counted")
  }

  @Test func sharedOwnerGoneEndsTheRegistrationAtTheNextValue() async {
    let tracker = LifetimeTracker()
    let ids = SharedEvent<Int>()
    var viewModel: ViewModel? = ViewModel(tracker.make())
    ids.observe(with: viewModel!, policy: .latest) { viewModel, id async in viewModel.loaded.append(id) }
    viewModel = nil
    #expect(tracker.liveCount == 0)
    ids.notifyObservers(1)
    #expect(ids.observerCount == 0, "a value that finds the owner gone leaves the registration counted")
  }
}
