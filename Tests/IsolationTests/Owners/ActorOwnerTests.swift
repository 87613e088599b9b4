import ObservableKit
import Testing
import TestSupport

/// An actor that records what its subscriptions deliver, and lets a test wait until it has
/// heard a number of values (a continuation, no sleeping).
actor ActorLog {
  var values: [String] = []
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
  let tracked: Tracked?

  init(tracked: Tracked? = nil) {
    self.tracked = tracked
  }

  func record(_ value: String) {
    values.append(value)
    if let waiter, values.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  /// Returns once `count` values were recorded.
  func wait(for count: Int) async {
    if values.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

/// An actor that subscribes in its `init`.
actor Scoreboard {
  var total = 0
  var heard = 0
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  init(points: SharedEvent<Int>) {
    points.observe(with: self) { board, value in
      board.total += value
      board.heard += 1
      if let waiter = board.waiter, board.heard >= waiter.count {
        board.waiter = nil
        waiter.continuation.resume()
      }
    }
  }

  func wait(for count: Int) async {
    if heard >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("Actors owning subscriptions")
struct ActorOwnerTests {
  @Test("Contract: an actor owns a SharedEvent subscription; the handler runs isolated to it, in order")
  func sharedEventInOrder() async {
    let event = SharedEvent<Int>()
    let tally = ActorLog()
    await tally.subscribe(to: event)
    for value in 1...200 { event.notifyObservers(value) }
    await tally.wait(for: 200)
    #expect(await tally.values == (1...200).map(String.init))
  }

  @Test("Contract: an actor subscribes in its init, passing self as the owner")
  func subscribesInInit() async {
    let points = SharedEvent<Int>()
    let board = Scoreboard(points: points)
    points.notifyObservers(3)
    points.notifyObservers(4)
    await board.wait(for: 2)
    #expect(await board.total == 7)
  }

  @Test("Contract: values from several threads reach the actor one call at a time, each once")
  func concurrentNotifications() async {
    let event = SharedEvent<Int>()
    let tally = ActorLog()
    await tally.subscribe(to: event)
    raceSharing(event, threads: 4) { event, thread in
      for value in 0..<100 { event.notifyObservers(thread * 1000 + value) }
    }
    await tally.wait(for: 400)
    let values = await tally.values
    #expect(values.count == 400)
    // Each thread's values arrive in the order that thread notified them.
    for thread in 0..<4 {
      let mine = values.compactMap(Int.init).filter { $0 / 1000 == thread }
      #expect(mine == (0..<100).map { thread * 1000 + $0 })
    }
  }

  @Test("Contract: the actor is held weakly; once it has gone, the next value ends the subscription",
        .timeLimit(.minutes(1)))
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func ownerHeldWeakly() async {
    let tracker = LifetimeTracker()
    let (gone, deinitialized) = AsyncStream<Void>.makeStream()
    let event = SharedEvent<Int>()
    var tally: ActorLog? = ActorLog(tracked: tracker.make { deinitialized.yield() })
    await tally!.subscribe(to: event)
    event.notifyObservers(1)
    await tally!.wait(for: 1)
    tally = nil
    // The drain that delivered 1 may still be returning from the actor; then it lets go.
    for await _ in gone { break }
    #expect(tracker.liveCount == 0, "the subscription does not keep the actor alive")
    event.notifyObservers(2)
    #expect(event.observerCount == 0)
  }

  @Test("Contract: once the actor has gone, the next value releases the handler and what it captured",
        .timeLimit(.minutes(1)))
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func handlerReleasedAfterOwner() async {
    let tracker = LifetimeTracker()
    let (gone, deinitialized) = AsyncStream<Void>.makeStream()
    let event = SharedEvent<Int>()
    var log: ActorLog? = ActorLog(tracked: tracker.make { deinitialized.yield() })
    var captured: Tracked? = tracker.make()
    event.observe(with: log!) { [captured] log, value in
      captured?.touch()
      log.record("\(value)")
    }
    captured = nil
    event.notifyObservers(1)
    await log!.wait(for: 1)
    log = nil
    for await _ in gone { break }
    #expect(tracker.liveCount == 1, "the handler still holds what it captured")
    event.notifyObservers(2)
    #expect(tracker.liveCount == 0, "the value that found the owner gone released the handler")
    #expect(event.observerCount == 0)
  }

  @Test("Contract: disposing an actor-owned subscription ends it")
  func disposeEnds() async {
    let event = SharedEvent<Int>()
    let tally = ActorLog()
    let token = await tally.subscribe(to: event)
    event.notifyObservers(1)
    await tally.wait(for: 1)
    token.dispose()
    #expect(event.observerCount == 0)
    event.notifyObservers(2)
    await tally.record("end")
    #expect(await tally.values == ["1", "end"])
  }

  @Test("Contract: SharedProperty replays to an actor owner; subscribe passes new and old; unsubscribe ends both")
  func sharedProperty() async {
    let score = SharedProperty(1)
    let tally = ActorLog()
    await tally.follow(score)
    await tally.wait(for: 1)
    score.value = 2
    await tally.wait(for: 3)
    // Two subscriptions, each with its own jobs on the actor: each keeps its order, but
    // nothing orders one's job before the other's.
    let values = await tally.values
    #expect(values.first == "value 1")
    #expect(Set(values.dropFirst()) == ["value 2", "1→2"] && values.count == 3)
    score.unsubscribe(tally)
    #expect(score.observerCount == 0)
  }

  @Test("Contract: an actor owns a SharedEventHub subscription")
  func hub() async {
    let hub = SharedEventHub()
    let tally = ActorLog()
    await tally.listen(to: hub)
    hub.post(ActorLogMessages.added, "a")
    hub.post(ActorLogMessages.added, "b")
    await tally.wait(for: 2)
    #expect(await tally.values == ["a", "b"])
  }
}

enum ActorLogMessages {
  static let added = HubMessage<String>("actorLog.added")
}

extension ActorLog {
  /// Subscribes inside the actor, as users write it.
  @discardableResult
  func subscribe(to event: SharedEvent<Int>) -> any Disposable {
    event.observe(with: self) { tally, value in tally.record("\(value)") }
  }

  func follow(_ score: SharedProperty<Int>) {
    score.observe(with: self) { tally, value in tally.record("value \(value)") }
    score.subscribe(self) { tally, newValue, oldValue in tally.record("\(oldValue)→\(newValue)") }
  }

  func listen(to hub: SharedEventHub) {
    hub.observe(ActorLogMessages.added, with: self) { tally, name in tally.record(name) }
  }
}
