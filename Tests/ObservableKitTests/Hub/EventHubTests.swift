import Dispatch
import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// The messages of these tests. `score` and `scoreText` share a name and differ in payload.
private enum Messages {
  static let score = HubMessage<Int>("score")
  static let scoreText = HubMessage<String>("score")
  static let other = HubMessage<Int>("other")
  static let reset = HubMessage<Void>("reset")
  static let tracked = HubMessage<Tracked>("tracked")
}

/// A sender of the confined hub.
private final class Sender {}

/// A sender of the shared hub: its senders must be `Sendable`.
private final class SharedSender: Sendable {}

private final class Owner: Sendable {
  let shown = ValueLog<Int>()
}

/// `EventHub`, `SharedEventHub` and `HubMessage`. Each sentence of the Contracts section
/// "Event hubs" is pinned here, in `EventHubStressTests` or in `HubIsolationTests` (the
/// compile errors by the Consumers package).
@Suite("Event hubs")
struct EventHubTests {
  // MARK: - Messages

  @Test("Contract: two messages with one name and different payload types never reach each other's observers")
  func typedMessagesAreSeparate() {
    let hub = EventHub()
    let numbers = ValueLog<Int>()
    let texts = ValueLog<String>()
    let optionals = ValueLog<Int?>()
    let tokens = [
      hub.observe(Messages.score, numbers.handler),
      hub.observe(Messages.scoreText, texts.handler),
      hub.observe(HubMessage<Int?>("score"), optionals.handler),
    ]
    hub.post(Messages.score, 1)
    hub.post(Messages.scoreText, "one")
    hub.post(HubMessage<Int?>("score"), nil)
    hub.post(Messages.score, 2)
    #expect(numbers.values == [1, 2])
    #expect(texts.values == ["one"])
    #expect(optionals.values == [nil])
    #expect(hub.observerCount(of: Messages.score) == 1)
    #expect(hub.observerCount(of: Messages.scoreText) == 1)
    // A message with the same name and payload type, declared elsewhere, is the same message.
    let sameMessage = HubMessage<Int>("score")
    hub.post(sameMessage, 3)
    #expect(numbers.values == [1, 2, 3])
    #expect(hub.observerCount(of: sameMessage) == 1)
    tokens.forEach { $0.dispose() }
  }

  @Test("A message describes itself as name(Type) and equals a message of the same name and type")
  func messageDescriptionAndEquality() {
    #expect(Messages.score.description == "score(Int)")
    #expect("\(Messages.scoreText)" == "score(String)")
    #expect(Messages.reset.description == "reset(())")
    #expect(HubMessage<Int>("score") == Messages.score)
    #expect(HubMessage<Int>("other") != Messages.score)
    #expect(Set([Messages.score, HubMessage<Int>("score"), Messages.other]).count == 2)
    #expect(HubMessage<Int>("score").hashValue == Messages.score.hashValue)
    #expect(Messages.score.name == "score")
  }

  // MARK: - Senders

  @Test("Contract: an observer without a sender hears every post of its message, with or without a sender")
  func unfilteredHearsEveryPost() {
    let hub = EventHub()
    let first = Sender()
    let second = Sender()
    let heard = ValueLog<Int>()
    let token = hub.observe(Messages.score, heard.handler)
    hub.post(Messages.score, 1)
    hub.post(Messages.score, 2, from: first)
    hub.post(Messages.score, 3, from: second)
    #expect(heard.values == [1, 2, 3])
    token.dispose()
  }

  @Test("Contract: an observer from: sender hears only the posts from that same object")
  func senderFilterByIdentity() {
    let hub = EventHub()
    let sender = Sender()
    let stranger = Sender()
    let heard = ValueLog<Int>()
    let token = hub.observe(Messages.score, from: sender, heard.handler)
    hub.post(Messages.score, 1, from: sender)
    hub.post(Messages.score, 2, from: stranger)
    hub.post(Messages.score, 3)
    hub.post(Messages.score, 4, from: sender)
    #expect(heard.values == [1, 4], "posts from another object and posts without a sender are not heard")
    token.dispose()
  }

  @Test("Contract: the sender filter holds its sender weakly")
  func senderHeldWeakly() {
    let hub = EventHub()
    weak var weakSender: Sender?
    var tokens: [any Disposable] = []
    do {
      let sender = Sender()
      weakSender = sender
      tokens.append(hub.observe(Messages.score, from: sender) { _ in })
      tokens.append(hub.events(Messages.score, from: sender).observe { _ in })
      hub.observe(Messages.score, from: sender, with: Owner()) { _, _ in }
      tokens.append(hub.observe(Messages.score, from: sender, on: DispatchQueue(label: "test")) { _ in })
      hub.post(Messages.score, 1, from: sender)
    }
    #expect(weakSender == nil, "no filter kept the sender alive")
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: an observer whose sender has deallocated hears nothing, even from an object at its address")
  func deadSenderHearsNothing() {
    let hub = EventHub()
    let heard = ValueLog<Int>()
    weak var weakSender: Sender?
    var deadAddress: UInt = 0
    let token: any Disposable
    do {
      let sender = Sender()
      weakSender = sender
      deadAddress = UInt(bitPattern: ObjectIdentifier(sender))
      token = hub.observe(Messages.score, from: sender, heard.handler)
      hub.post(Messages.score, 0, from: sender)
    }
    #expect(weakSender == nil)
    #expect(heard.values == [0])
    // New objects of the same class, allocated after the sender died: the allocator hands out
    // its address again (unless a sanitizer quarantines freed memory). None is the sender.
    var reusedAddress = 0
    for index in 1...1_000 {
      let stranger = Sender()
      if UInt(bitPattern: ObjectIdentifier(stranger)) == deadAddress { reusedAddress += 1 }
      hub.post(Messages.score, index, from: stranger)
    }
    hub.post(Messages.score, -1)
    #expect(heard.values == [0], "nothing is delivered once the sender has deallocated (address reused \(reusedAddress) times)")
    #expect(hub.observerCount(of: Messages.score) == 1, "the subscription counts until it is disposed")
    token.dispose()
    #expect(hub.observerCount(of: Messages.score) == 0)
  }

  // MARK: - Delivery

  @Test("Contract: EventHub delivers synchronously on the posting thread")
  func synchronousOnPostingThread() {
    let hub = EventHub()
    let heard = ValueLog<String>()
    let token = hub.observe(Messages.score) { heard.record("\($0) on \(currentThreadID())") }
    let poster = Guarded<UInt>(0)
    let heardBeforeReturn = Guarded(false)
    withWatchdogSharing(hub, "a post on another thread") { hub in
      poster.value = currentThreadID()
      hub.post(Messages.score, 1)
      heardBeforeReturn.value = heard.count == 1
    }
    #expect(heardBeforeReturn.value)
    #expect(heard.values == ["1 on \(poster.value)"])
    token.dispose()
  }

  @Test("Contract: EventHub calls the observers of a message in subscription order; removing one does not reorder")
  func subscriptionOrder() {
    let hub = EventHub()
    let sender = Sender()
    let order = ValueLog<String>()
    let a = hub.observe(Messages.score) { order.record("a\($0)") }
    let b = hub.observe(Messages.score, from: sender) { order.record("b\($0)") }
    let c = hub.events(Messages.score).map { $0 * 10 }.observe { order.record("c\($0)") }
    let d = hub.observe(Messages.score) { order.record("d\($0)") }
    hub.post(Messages.score, 1, from: sender)
    #expect(order.values == ["a1", "b1", "c10", "d1"])
    b.dispose()
    let e = hub.observe(Messages.score) { order.record("e\($0)") }
    hub.post(Messages.score, 2, from: sender)
    #expect(order.values == ["a1", "b1", "c10", "d1", "a2", "c20", "d2", "e2"])
    [a, c, d, e].forEach { $0.dispose() }
  }

  @Test("Contract: EventHub holds no lock while a handler runs; a handler may use the hub")
  func noLockHeldInHandler() {
    let done = Tally()
    withWatchdog("a handler observing, posting, counting and disposing on its own hub") {
      let hub = EventHub()
      let holder = Guarded<[any Disposable]>([])
      holder.value.append(hub.observe(Messages.score) { _ in
        holder.value.append(hub.observe(Messages.other) { _ in })
        hub.post(Messages.other, 1)
        _ = hub.observerCount(of: Messages.score)
        holder.value.first?.dispose()
        done.increment()
      })
      hub.post(Messages.score, 1)
      holder.value.forEach { $0.dispose() }
    }
    #expect(done.value == 1)
  }

  @Test("A Void message is posted without a payload, with or without a sender")
  func voidMessages() {
    let hub = EventHub()
    let sender = Sender()
    let all = Tally()
    let fromSender = Tally()
    let tokens = [
      hub.observe(Messages.reset) { all.increment() },
      hub.observe(Messages.reset, from: sender) { fromSender.increment() },
    ]
    hub.post(Messages.reset)
    hub.post(Messages.reset, from: sender)
    hub.post(Messages.reset, (), from: Sender())
    #expect(all.value == 3)
    #expect(fromSender.value == 1)
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: observerCount(of:) counts every subscription of a message, whatever its sender filter")
  func observerCountOfMessage() {
    let hub = EventHub()
    let sender = Sender()
    let owner = Owner()
    #expect(hub.observerCount(of: Messages.score) == 0)
    let a = hub.observe(Messages.score) { _ in }
    let b = hub.observe(Messages.score, from: sender) { _ in }
    let c = hub.events(Messages.score).filter { $0 > 0 }.observe { _ in }
    hub.observe(Messages.score, with: owner) { _, _ in }
    #expect(hub.observerCount(of: Messages.score) == 4)
    #expect(hub.observerCount(of: Messages.scoreText) == 0)
    #expect(hub.observerCount(of: Messages.other) == 0)
    a.dispose()
    b.dispose()
    c.dispose()
    #expect(hub.observerCount(of: Messages.score) == 1)
  }

  // MARK: - Re-entrancy

  @Test("Contract: a post of a message inside one of its handlers is queued after the current pass")
  func samePostInsideHandlerIsQueued() {
    let hub = EventHub()
    let order = ValueLog<String>()
    let returnedBeforeDelivery = Guarded(false)
    let a = hub.observe(Messages.score) { value in
      order.record("a\(value)")
      if value == 1 {
        hub.post(Messages.score, 2)
        returnedBeforeDelivery.value = order.values == ["a1"]
        hub.post(Messages.score, 3)
      }
    }
    let b = hub.observe(Messages.score) { order.record("b\($0)") }
    hub.post(Messages.score, 1)
    #expect(returnedBeforeDelivery.value, "the inner post returned at once")
    #expect(order.values == ["a1", "b1", "a2", "b2", "a3", "b3"], "every observer sees the same sequence")
    a.dispose()
    b.dispose()
  }

  @Test("Contract: a post of another message inside a handler is delivered before that post returns")
  func otherPostInsideHandlerIsImmediate() {
    let hub = EventHub()
    let order = ValueLog<String>()
    let a = hub.observe(Messages.score) { value in
      order.record("score \(value)")
      hub.post(Messages.other, value * 10)
      order.record("posted other")
      hub.post(Messages.scoreText, "text")
      order.record("posted text")
    }
    let b = hub.observe(Messages.other) { order.record("other \($0)") }
    let c = hub.observe(Messages.scoreText) { order.record("text \($0)") }
    hub.post(Messages.score, 1)
    #expect(order.values == ["score 1", "other 10", "posted other", "text text", "posted text"])
    [a, b, c].forEach { $0.dispose() }
  }

  @Test("Contract: a handler disposed during a pass is not called again once dispose() returns")
  func disposeDuringPass() {
    let hub = EventHub()
    let order = ValueLog<String>()
    let later = Guarded<(any Disposable)?>(nil)
    let own = Guarded<(any Disposable)?>(nil)
    own.value = hub.observe(Messages.score) { value in
      order.record("a\(value)")
      later.value?.dispose()
      own.value?.dispose()
    }
    later.value = hub.observe(Messages.score) { order.record("b\($0)") }
    let c = hub.observe(Messages.score) { order.record("c\($0)") }
    hub.post(Messages.score, 1)
    hub.post(Messages.score, 2)
    #expect(order.values == ["a1", "c1", "c2"])
    #expect(hub.observerCount(of: Messages.score) == 1)
    c.dispose()
  }

  @Test("Contract: a handler registered during a pass first hears the next post")
  func registeredDuringPassHearsNextPost() {
    let hub = EventHub()
    let late = ValueLog<Int>()
    let tokens = Guarded<[any Disposable]>([])
    let a = hub.observe(Messages.score) { value in
      if value == 1 { tokens.value.append(hub.observe(Messages.score, late.handler)) }
    }
    hub.post(Messages.score, 1)
    #expect(late.values == [])
    hub.post(Messages.score, 2)
    #expect(late.values == [2])
    a.dispose()
    tokens.value.forEach { $0.dispose() }
  }

  // MARK: - Posts nobody observes

  @Test("Contract: a post that no one observes does nothing and allocates nothing")
  func postWithoutObservers() {
    let hub = EventHub()
    let tracker = LifetimeTracker()
    hub.post(Messages.score, 1)
    hub.post(Messages.score, 2, from: Sender())
    hub.post(Messages.reset)
    hub.post(Messages.tracked, tracker.make())
    #expect(hub.observerCount(of: Messages.score) == 0)
    #expect(hub.channels.table.withLock { $0.isEmpty }, "no post made a channel")
    #expect(tracker.liveCount == 0, "nothing kept the payload")
    // A later observer works as usual and hears the next post only.
    let heard = ValueLog<Int>()
    let token = hub.observe(Messages.score, heard.handler)
    hub.post(Messages.score, 3)
    #expect(heard.values == [3])
    #expect(hub.channels.table.withLock { $0.count } == 1, "the channel was made by its first observer")
    token.dispose()
    // A message nobody observes any more posts to its channel, to nobody.
    hub.post(Messages.score, 4)
    #expect(heard.values == [3])
    #expect(hub.observerCount(of: Messages.score) == 0)

    let shared = SharedEventHub()
    shared.post(Messages.score, 1)
    shared.post(Messages.score, 2, from: SharedSender())
    shared.post(Messages.reset)
    #expect(shared.observerCount(of: Messages.score) == 0)
    #expect(shared.hub.channels.table.withLock { $0.isEmpty }, "no post made a channel")
  }

  // MARK: - Lifetime

  @Test("Contract: hubs are instances: a post on one hub never reaches another's observers")
  func hubsAreInstances() {
    let first = EventHub()
    let second = EventHub()
    let heard = ValueLog<String>()
    let a = first.observe(Messages.score) { heard.record("first \($0)") }
    let b = second.observe(Messages.score) { heard.record("second \($0)") }
    first.post(Messages.score, 1)
    second.post(Messages.score, 2)
    #expect(heard.values == ["first 1", "second 2"])
    a.dispose()
    b.dispose()
  }

  @Test("Contract: dropping an EventHub ends every subscription made through it and releases their handlers")
  func droppingHubEndsSubscriptions() {
    let tracker = LifetimeTracker()
    let owner = Owner()
    var tokens: [any Disposable] = []
    weak var weakHub: EventHub?
    do {
      let hub = EventHub()
      weakHub = hub
      let sender = Sender()
      tokens.append(Self.observe(hub, capturing: tracker.make()))
      tokens.append(Self.observe(hub, from: sender, capturing: tracker.make()))
      tokens.append(Self.observeEvents(hub, capturing: tracker.make()))
      tokens.append(Self.observe(hub, with: owner, capturing: tracker.make()))
      tokens.append(Self.observeVoid(hub, capturing: tracker.make()))
      hub.post(Messages.score, 1, from: sender)
      #expect(hub.observerCount(of: Messages.score) == 4)
      #expect(tracker.liveCount == 5)
    }
    #expect(weakHub == nil, "no subscription keeps the hub alive")
    #expect(tracker.liveCount == 0, "every handler was released")
    for token in tokens { #expect(token.isDisposed) }
    tokens.forEach { $0.dispose() }  // a no-op after the hub is gone
  }

  @Test("Contract: events(_:from:) makes no channel until observed; observed after its hub has gone, it registers nothing")
  func eventsViewOutlivesHub() {
    let tracker = LifetimeTracker()
    var view: ReadOnlyEvent<Int>?
    var sharedView: SharedReadOnlyEvent<Int>?
    do {
      let hub = EventHub()
      let shared = SharedEventHub()
      view = hub.events(Messages.score)
      sharedView = shared.events(Messages.score)
      #expect(hub.channels.table.withLock { $0.isEmpty }, "events made no channel")
      #expect(shared.hub.channels.table.withLock { $0.isEmpty }, "events made no channel")
    }
    let token = Self.observe(view!, capturing: tracker.make())
    let sharedToken = Self.observe(sharedView!, capturing: tracker.make())
    #expect(token.isDisposed && sharedToken.isDisposed, "the disposables are already disposed")
    #expect(tracker.liveCount == 0, "no handler was kept")
  }

  private static func observe(_ view: ReadOnlyEvent<Int>, capturing tracked: Tracked) -> any Disposable {
    view.observe { _ in tracked.touch() }
  }

  private static func observe(_ view: SharedReadOnlyEvent<Int>, capturing tracked: Tracked) -> any Disposable {
    view.observeNonisolated { _ in tracked.touch() }
  }

  @Test("Contract: dropping an EventHub also ends its queue and main-actor subscriptions and releases their handlers")
  func droppingHubEndsDeliveredSubscriptions() {
    let tracker = LifetimeTracker()
    var tokens: [any Disposable] = []
    do {
      let hub = EventHub()
      tokens.append(Self.observe(hub, on: DispatchQueue(label: "test"), capturing: tracker.make()))
      tokens.append(Self.observeOnMain(hub, capturing: tracker.make()))
      #expect(tracker.liveCount == 2)
    }
    #expect(tracker.liveCount == 0, "every handler was released")
    for token in tokens { #expect(token.isDisposed) }
  }

  private static func observe(_ hub: EventHub, from sender: Sender? = nil, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, from: sender) { _ in tracked.touch() }
  }

  private static func observeEvents(_ hub: EventHub, capturing tracked: Tracked) -> any Disposable {
    hub.events(Messages.score).map { $0 + 1 }.observe { _ in tracked.touch() }
  }

  private static func observe(_ hub: EventHub, with owner: Owner, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, with: owner) { _, _ in tracked.touch() }
  }

  private static func observeVoid(_ hub: EventHub, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.reset) { tracked.touch() }
  }

  private static func observe(_ hub: EventHub, on queue: DispatchQueue, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, on: queue) { _ in tracked.touch() }
  }

  private static func observeOnMain(_ hub: EventHub, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, on: MainActor.shared) { _ in tracked.touch() }
  }

  // MARK: - Owner-bound, queue and main-actor forms

  @Test("Contract: an owner-bound hub observer ends with its owner; no token needs to be kept")
  func ownerBound() {
    let hub = EventHub()
    let sender = Sender()
    let tracker = LifetimeTracker()
    var owner: Owner? = Owner()
    let shown = owner!.shown
    let filtered = ValueLog<Int>()
    hub.observe(Messages.score, with: owner!) { owner, value in owner.shown.record(value) }
    Self.observeFiltered(hub, from: sender, with: owner!, into: filtered, capturing: tracker.make())
    hub.post(Messages.score, 1)
    hub.post(Messages.score, 2, from: sender)
    #expect(shown.values == [1, 2])
    #expect(filtered.values == [2], "the sender filter applies to the owner-bound form")
    #expect(hub.observerCount(of: Messages.score) == 2)
    owner = nil
    #expect(hub.observerCount(of: Messages.score) == 0, "stops counting once the owner's deinit has begun")
    hub.post(Messages.score, 3, from: sender)
    #expect(shown.values == [1, 2])
    #expect(filtered.values == [2])
    #expect(tracker.liveCount == 0, "the handler is released at the latest by the next post")
  }

  private static func observeFiltered(
    _ hub: EventHub, from sender: Sender, with owner: Owner, into log: ValueLog<Int>, capturing tracked: Tracked
  ) {
    hub.observe(Messages.score, from: sender, with: owner) { _, value in
      tracked.touch()
      log.record(value)
    }
  }

  @Test("Contract: an owner-bound hub observer's token ends it early")
  func ownerBoundTokenEndsEarly() {
    let hub = EventHub()
    let owner = Owner()
    let token = hub.observe(Messages.score, with: owner) { owner, value in owner.shown.record(value) }
    hub.post(Messages.score, 1)
    token.dispose()
    hub.post(Messages.score, 2)
    #expect(owner.shown.values == [1])
    #expect(hub.observerCount(of: Messages.score) == 0)
  }

  @Test("Contract: the queue form delivers asynchronously on the queue, in order, even when posting on it")
  func queueForm() {
    let hub = EventHub()
    let sender = Sender()
    let queue = DispatchQueue(label: "hub.test", attributes: .concurrent)
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let heard = ValueLog<Int>()
    let onQueue = Guarded(true)
    let done = DispatchSemaphore(value: 0)
    let token = hub.observe(Messages.score, on: queue) { value in
      if DispatchQueue.getSpecific(key: key) != 7 { onQueue.value = false }
      heard.record(value)
      if value == 499 { done.signal() }
    }
    let filtered = ValueLog<Int>()
    let filteredToken = hub.observe(Messages.score, from: sender, on: queue, filtered.handler)
    queue.sync(flags: .barrier) {
      // On the queue itself the call still waits for the queue.
      hub.post(Messages.score, 0, from: sender)
      #expect(heard.count == 0, "delivered asynchronously, even when the posting thread runs the queue")
    }
    for value in 1..<500 { hub.post(Messages.score, value) }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(heard.values == Array(0..<500), "in the order of the posts, on a concurrent queue too")
    #expect(onQueue.value)
    queue.sync(flags: .barrier) {}
    #expect(filtered.values == [0])
    token.dispose()
    filteredToken.dispose()
    #expect(hub.observerCount(of: Messages.score) == 0)
  }

  @Test("Contract: once dispose() returns, no queued hub delivery starts")
  func queueFormDisposeDropsQueued() {
    let hub = EventHub()
    let queue = DispatchQueue(label: "hub.test")
    let gate = DispatchSemaphore(value: 0)
    let heard = Tally()
    queue.async { gate.wait() }
    let token = hub.observe(Messages.score, on: queue) { _ in heard.increment() }
    for value in 0..<10 { hub.post(Messages.score, value) }
    token.dispose()
    gate.signal()
    queue.sync {}
    #expect(heard.value == 0)
  }

  @Test("Contract: the main-actor form runs at once for a post on the main actor, in order for posts from elsewhere")
  @MainActor
  func mainActorForm() async {
    let hub = EventHub()
    // The posting block reaches the hub through a holder emptied at the end (see `raceSharing`).
    let holder = Guarded<EventHub?>(hub)
    let sender = Sender()
    var heard: [Int] = []
    var filtered: [Int] = []
    let filteredToken = hub.observe(Messages.score, from: sender, on: MainActor.shared) { filtered.append($0) }
    let token: any Disposable = await withCheckedContinuation { continuation in
      var token: (any Disposable)?
      token = hub.observe(Messages.score, on: MainActor.shared) { value in
        MainActor.assertIsolated()
        heard.append(value)  // main-actor state, no lock
        if value == 100 { continuation.resume(returning: token!) }
      }
      hub.post(Messages.score, 0, from: sender)
      #expect(heard == [0], "a post on the main actor is delivered before post returns")
      #expect(filtered == [0])
      DispatchQueue.global().async {
        guard let hub = holder.value else { return }
        for value in 1...100 { hub.post(Messages.score, value) }
      }
    }
    #expect(heard == Array(0...100))
    #expect(filtered == [0])
    token.dispose()
    filteredToken.dispose()
    holder.value = nil
  }

  // MARK: - Events, operators and async sequences

  @Test("Contract: events(_:from:) is an event of the payload: operators and the sender filter apply")
  func eventsWithOperators() {
    let hub = EventHub()
    let sender = Sender()
    let mapped = ValueLog<String>()
    let fromSender = ValueLog<Int>()
    let events = hub.events(Messages.score)
    #expect(hub.observerCount(of: Messages.score) == 0, "events(_:) registers nothing until observed")
    let tokens = [
      events.map { $0 * 10 }.filter { $0 > 10 }.compactMap { "\($0)" }.observe(mapped.handler),
      hub.events(Messages.score, from: sender).skip(1).observe(fromSender.handler),
    ]
    hub.post(Messages.score, 1, from: sender)
    hub.post(Messages.score, 2, from: sender)
    hub.post(Messages.score, 3)
    #expect(mapped.values == ["20", "30"])
    #expect(fromSender.values == [2])
    #expect(hub.observerCount(of: Messages.score) == 2)
    tokens.forEach { $0.dispose() }
    #expect(hub.observerCount(of: Messages.score) == 0, "disposing releases the chains")
  }

  @Test("Contract: events(_:).values is an async sequence of the posts; releasing the iterator ends the subscription")
  func eventsValues() async {
    let hub = EventHub()
    let values = hub.events(Messages.score).values
    #expect(hub.observerCount(of: Messages.score) == 0, "the subscription starts with the iteration")
    var received: [Int] = []
    do {
      var iterator = values.makeAsyncIterator()
      #expect(hub.observerCount(of: Messages.score) == 1)
      await Task.detached { for value in 1...3 { hub.post(Messages.score, value) } }.value
      while received.count < 3, let value = await iterator.next() { received.append(value) }
    }
    #expect(received == [1, 2, 3])
    #expect(hub.observerCount(of: Messages.score) == 0, "the iteration ended, and so did its subscription")
  }

  // MARK: - SharedEventHub

  @Test("Contract: a SharedEventHub handler registered from nonisolated code runs on the posting thread before post returns")
  func sharedNonisolatedIsSynchronous() {
    let hub = SharedEventHub()
    let heard = ValueLog<String>()
    let token = hub.observe(Messages.score) { heard.record("\($0) on \(currentThreadID())") }
    let poster = Guarded<UInt>(0)
    let heardBeforeReturn = Guarded(false)
    withWatchdogSharing(hub, "a shared post on another thread") { hub in
      poster.value = currentThreadID()
      hub.post(Messages.score, 1)
      heardBeforeReturn.value = heard.count == 1
    }
    #expect(heardBeforeReturn.value)
    #expect(heard.values == ["1 on \(poster.value)"])
    token.dispose()
    hub.post(Messages.score, 2)
    #expect(heard.count == 1)
  }

  @Test("Contract: SharedEventHub.observeNonisolated calls its handler on the posting thread, from many threads")
  func sharedObserveNonisolated() {
    let hub = SharedEventHub()
    let total = Tally()
    let offThread = Tally()
    let token = hub.observeNonisolated(Messages.score) { value in
      if value != Int(truncatingIfNeeded: currentThreadID()) { offThread.increment() }
      total.increment()
    }
    raceSharing(hub, threads: 4) { hub, _ in
      let me = Int(truncatingIfNeeded: currentThreadID())
      for _ in 0..<250 { hub.post(Messages.score, me) }
    }
    #expect(total.value == 1_000)
    #expect(offThread.value == 0, "each call ran on the thread that posted it")
    token.dispose()
    hub.post(Messages.score, 0)
    #expect(total.value == 1_000)
  }

  @Test("Contract: SharedEventHub messages, sender filters and subscription order are those of EventHub")
  func sharedMessagesAndSenders() {
    let hub = SharedEventHub()
    let sender = SharedSender()
    let order = ValueLog<String>()
    let tokens = [
      hub.observeNonisolated(Messages.score) { order.record("all \($0)") },
      hub.observe(Messages.score, from: sender) { order.record("sender \($0)") },
      hub.observeNonisolated(Messages.scoreText) { order.record("text \($0)") },
      hub.events(Messages.score).map { $0 * 10 }.observe { order.record("mapped \($0)") },
      hub.observe(Messages.reset, from: sender) { order.record("reset") },
    ]
    hub.post(Messages.score, 1)
    hub.post(Messages.score, 2, from: sender)
    hub.post(Messages.score, 3, from: SharedSender())
    hub.post(Messages.scoreText, "x")
    hub.post(Messages.reset)
    hub.post(Messages.reset, from: sender)
    #expect(order.values == [
      "all 1", "mapped 10",
      "all 2", "sender 2", "mapped 20",
      "all 3", "mapped 30",
      "text x",
      "reset",
    ])
    #expect(hub.observerCount(of: Messages.score) == 3)
    #expect(hub.observerCount(of: Messages.scoreText) == 1)
    tokens.forEach { $0.dispose() }
    #expect(hub.observerCount(of: Messages.score) == 0)
  }

  @Test("Contract: a SharedEventHub observer whose sender has deallocated hears nothing")
  func sharedDeadSenderHearsNothing() {
    let hub = SharedEventHub()
    let heard = ValueLog<Int>()
    weak var weakSender: SharedSender?
    let token: any Disposable
    do {
      let sender = SharedSender()
      weakSender = sender
      token = hub.observe(Messages.score, from: sender) { heard.record($0) }
      hub.post(Messages.score, 0, from: sender)
    }
    #expect(weakSender == nil, "the filter holds the sender weakly")
    for index in 1...1_000 { hub.post(Messages.score, index, from: SharedSender()) }
    hub.post(Messages.score, -1)
    #expect(heard.values == [0])
    #expect(hub.observerCount(of: Messages.score) == 1)
    token.dispose()
  }

  @Test("Contract: a SharedEventHub post inside its own handler is queued; another message is delivered at once")
  func sharedReentrancy() {
    let hub = SharedEventHub()
    let order = ValueLog<String>()
    let a = hub.observe(Messages.score) { value in
      order.record("a\(value)")
      if value == 1 {
        hub.post(Messages.score, 2)
        order.record("posted 2")
        hub.post(Messages.other, 10)
        order.record("posted other")
      }
    }
    let b = hub.observeNonisolated(Messages.score) { order.record("b\($0)") }
    let c = hub.observe(Messages.other) { order.record("other \($0)") }
    hub.post(Messages.score, 1)
    #expect(order.values == ["a1", "posted 2", "other 10", "posted other", "b1", "a2", "b2"])
    [a, b, c].forEach { $0.dispose() }
  }

  @Test("Contract: SharedEventHub owner-bound and queue forms")
  func sharedOwnerBoundAndQueue() {
    let hub = SharedEventHub()
    var owner: Owner? = Owner()
    let shown = owner!.shown
    hub.observe(Messages.score, with: owner!) { owner, value in owner.shown.record(value) }
    hub.post(Messages.score, 1)
    #expect(shown.values == [1])
    owner = nil
    hub.post(Messages.score, 2)
    #expect(shown.values == [1])
    #expect(hub.observerCount(of: Messages.score) == 0)

    let queue = DispatchQueue(label: "shared.hub.test")
    let heard = ValueLog<Int>()
    let done = DispatchSemaphore(value: 0)
    let token = hub.observe(Messages.score, on: queue) { value in
      heard.record(value)
      if value == 99 { done.signal() }
    }
    raceSharing(hub, threads: 1) { hub, _ in for value in 0..<100 { hub.post(Messages.score, value) } }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(heard.values == Array(0..<100))
    token.dispose()
  }

  @Test("Contract: dropping a SharedEventHub ends every subscription made through it and releases their handlers")
  func sharedDroppingHubEndsSubscriptions() {
    let tracker = LifetimeTracker()
    var tokens: [any Disposable] = []
    weak var weakHub: SharedEventHub?
    do {
      let hub = SharedEventHub()
      weakHub = hub
      tokens.append(Self.observeNonisolated(hub, capturing: tracker.make()))
      tokens.append(Self.observeEvents(hub, capturing: tracker.make()))
      hub.post(Messages.score, 1)
      #expect(tracker.liveCount == 2)
    }
    #expect(weakHub == nil)
    #expect(tracker.liveCount == 0, "every handler was released")
    for token in tokens { #expect(token.isDisposed) }
  }

  @Test("Contract: dropping a SharedEventHub also ends its isolated, owner-bound, queue and main-actor subscriptions")
  func sharedDroppingHubEndsDeliveredSubscriptions() {
    let tracker = LifetimeTracker()
    let owner = Owner()
    var tokens: [any Disposable] = []
    do {
      let hub = SharedEventHub()
      tokens.append(Self.observe(hub, capturing: tracker.make()))
      tokens.append(Self.observe(hub, with: owner, capturing: tracker.make()))
      tokens.append(Self.observe(hub, on: DispatchQueue(label: "test"), capturing: tracker.make()))
      tokens.append(Self.observeOnMain(hub, capturing: tracker.make()))
      #expect(tracker.liveCount == 4)
    }
    #expect(tracker.liveCount == 0, "every handler was released")
    for token in tokens { #expect(token.isDisposed) }
  }

  private static func observe(_ hub: SharedEventHub, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score) { _ in tracked.touch() }
  }

  private static func observeNonisolated(_ hub: SharedEventHub, capturing tracked: Tracked) -> any Disposable {
    hub.observeNonisolated(Messages.score) { _ in tracked.touch() }
  }

  private static func observeEvents(_ hub: SharedEventHub, capturing tracked: Tracked) -> any Disposable {
    hub.events(Messages.score).map { $0 + 1 }.observeNonisolated { _ in tracked.touch() }
  }

  private static func observe(_ hub: SharedEventHub, with owner: Owner, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, with: owner) { _, _ in tracked.touch() }
  }

  private static func observe(_ hub: SharedEventHub, on queue: DispatchQueue, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, on: queue) { _ in tracked.touch() }
  }

  private static func observeOnMain(_ hub: SharedEventHub, capturing tracked: Tracked) -> any Disposable {
    hub.observe(Messages.score, on: MainActor.shared) { _ in tracked.touch() }
  }

  @Test("Contract: SharedEventHub events(_:).values from another task")
  func sharedValues() async {
    let hub = SharedEventHub()
    var iterator = hub.events(Messages.score).values.makeAsyncIterator()
    #expect(hub.observerCount(of: Messages.score) == 1, "the iterator subscribed")
    await Task.detached { for value in 1...3 { hub.post(Messages.score, value) } }.value
    var seen: [Int] = []
    for _ in 1...3 { if let value = await iterator.next() { seen.append(value) } }
    #expect(seen == [1, 2, 3])
  }
}
