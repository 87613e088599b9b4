import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// A long-lived owner, as a view controller or an app model is.
private final class LongLivedOwner: Sendable {}

/// How a test ends an owner-bound subscription before it drops the source.
enum SubscriptionEnd: String, CaseIterable, Sendable {
  case dispose, unsubscribe, dropSource
}

/// What owners hold for their subscriptions: nothing (the storage keeps the owner's link
/// beside the subscription, or `OwnerLifetime`'s list holds both weakly), and how dead
/// owners' subscriptions are swept without any value arriving. The same code on every
/// platform. Part of the Contracts sections "Owner-bound observation" and "Platforms".
@Suite("Owner records")
struct OwnerRecordTests {
  @Test(
    "Contract: once a property's owner-bound subscription ends, the long-lived owner keeps nothing of it alive",
    arguments: SubscriptionEnd.allCases
  )
  func propertyReleasedWhileOwnerLives(end: SubscriptionEnd) {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    do {
      let property = Property(tracker.make())
      let captured = tracker.make()
      let observed = property.observe(with: owner) { _, _ in captured.touch() }
      let subscribed = property.subscribe(owner) { _, _ in captured.touch() }
      #expect(tracker.liveCount == 2)
      switch end {
      case .dispose:
        observed.dispose()
        subscribed.dispose()
      case .unsubscribe:
        property.unsubscribe(owner)
      case .dropSource:
        break
      }
    }
    #expect(tracker.liveCount == 0, "the value, the handlers and the storage are gone; the owner lives")
    withExtendedLifetime(owner) {}
  }

  @Test(
    "Contract: once a shared property's owner-bound subscription ends, the long-lived owner keeps nothing of it alive",
    arguments: SubscriptionEnd.allCases
  )
  func sharedPropertyReleasedWhileOwnerLives(end: SubscriptionEnd) {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    do {
      let property = SharedProperty(tracker.make())
      let captured = tracker.make()
      let observed = property.observe(with: owner) { _, _ in captured.touch() }
      let subscribed = property.subscribe(owner) { _, _, _ in captured.touch() }
      switch end {
      case .dispose:
        observed.dispose()
        subscribed.dispose()
      case .unsubscribe:
        property.unsubscribe(owner)
        observed.dispose()  // unsubscribe ends the subscribe subscriptions only
      case .dropSource:
        break
      }
    }
    // The replay ran at once, on every path: nothing of it waits.
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(owner) {}
  }

  @Test("Contract: once an event's owner-bound subscription ends, its handler is released while the owner lives")
  func eventReleasedWhileOwnerLives() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    let event = ObservableEvent<Int>()
    do {
      let captured = tracker.make()
      event.observe(with: owner) { _, _ in captured.touch() }.dispose()
    }
    #expect(tracker.liveCount == 0)
    do {
      let dropped = ObservableEvent<Int>()
      let captured = tracker.make()
      dropped.observe(with: owner) { _, _ in captured.touch() }
    }
    #expect(tracker.liveCount == 0, "the event went, and with it the handler")
    withExtendedLifetime(owner) {}
  }

  @Test("Contract: a derived source's owner-bound subscription keeps no dropped source alive while the owner lives")
  func derivedSourceReleasedWhileOwnerLives() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    do {
      let property = Property(tracker.make())
      let captured = tracker.make()
      property.map { $0 }.observe(with: owner) { _, _ in captured.touch() }
      let event = ObservableEvent<Tracked>()
      event.filter { _ in true }.observe(with: owner) { _, _ in captured.touch() }
    }
    #expect(tracker.liveCount == 0, "the property, its value and the handlers are gone; the owner lives")
    withExtendedLifetime(owner) {}
  }

  /// What a storage holds: its live subscriptions and any not yet ended (tombstones
  /// included), and the links of its owner-bound ones. Read without `observerCount`,
  /// which would remove the dead owners' subscriptions first.
  private static func held<Value, State>(_ storage: ObserverStorage<Value, State>) -> (subscriptions: Int, links: Int) {
    storage.withLock { ($0.bag.entries.count, $0.owners?.bag.entries.count ?? 0) }
  }

  @Test("Contract: no record per owner: a storage holds the links of its live owner-bound subscriptions, at most about twice as many")
  func noRecordPerOwner() {
    let owner = LongLivedOwner()
    let property = Property(0)
    for _ in 0..<1_000 {
      property.observe(with: owner) { _, _ in }.dispose()
    }
    #expect(Self.held(property.storage).links <= 16, "ended subscriptions leave no links behind: \(Self.held(property.storage))")
    let live = (0..<100).map { _ in property.observe(with: owner) { _, _ in } }
    #expect(Self.held(property.storage).links >= 100 && Self.held(property.storage).links <= 216)
    live.forEach { $0.dispose() }
    #expect(!property.isObserved)
    #expect(Self.held(property.storage).links <= 216)
  }

  @Test(
    "Contract: a long-lived source observed by 100,000 short-lived owners that never see a value holds O(live owners) subscriptions once they are gone",
    arguments: ["event", "property", "shared event"]
  )
  func shortLivedOwnersAreReclaimed(source: String) {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    let property = Property(0)
    let shared = SharedEvent<Int>()
    let live = LongLivedOwner()
    // Live owners beside the short-lived ones: they must stay.
    let kept = (0..<10).map { _ in event.observe(with: live) { _, _ in } } + (0..<10).map { _ in
      property.observe(with: live) { _, _ in }
    }
    var mostHeld = 0
    for index in 0..<100_000 {
      let owner = LongLivedOwner()
      let captured = index % 1_000 == 0 ? tracker.make() : nil
      switch source {
      case "event": event.observe(with: owner) { _, _ in captured?.touch() }
      case "property": property.observe(with: owner) { _, _ in captured?.touch() }
      default: shared.observe(with: owner) { _, _ in captured?.touch() }
      }
      if index % 997 == 0 {
        let storages = [Self.held(event.storage).subscriptions, Self.held(property.storage).subscriptions]
        mostHeld = max(mostHeld, storages.max()!, Self.held(shared.event.storage).subscriptions)
      }
    }
    switch source {
    case "event", "property":
      // One owner lives at a time besides the 10 long-lived subscriptions: a sweep runs
      // whenever the links have doubled since the last, so the storage holds a few dozen.
      #expect(mostHeld <= 64, "subscriptions held at once: \(mostHeld)")
    default:
      // The shared family's owner form is listed process-wide (`OwnerLifetimeList`), which
      // other tests share: bounded by twice the live subscriptions of the whole process.
      #expect(mostHeld <= 4_096, "subscriptions held at once: \(mostHeld)")
    }
    #expect(tracker.liveCount <= 1, "dead owners' handlers are released without any value: \(tracker.liveCount) live")
    #expect(event.observerCount == 10 && property.observerCount == 10, "the live owner's subscriptions stay")
    withExtendedLifetime((kept, live)) {}
  }

  @Test("Contract: one owner's subscriptions made and ended from 4 threads at once: none is lost; once the owner is gone, a sweep ends them")
  func concurrentSubscriptionsOfOneOwner() {
    let event = SharedEvent<Int>()
    let plain = SharedProperty(0)
    let kept = Guarded<[any Disposable]>([])
    var gone: WeakReference?
    do {
      let owner = LongLivedOwner()
      // The threads hold the owner only while they register: a thread's closure may be
      // released after `race` returns.
      let reference = WeakReference(owner)
      race(threads: 4) { thread in
        for index in 0..<500 {
          let owner = reference.object as! LongLivedOwner
          let token = thread % 2 == 0 ? event.observe(with: owner) { _, _ in } : plain.observe(with: owner) { _, _ in }
          if index % 10 == 0 { kept.withLock { $0.append(token) } } else { token.dispose() }
        }
      }
      #expect(event.observerCount == 100 && plain.observerCount == 100)
      gone = WeakReference(owner)
    }
    #expect(gone?.object == nil, "the owner is gone")
    #expect(plain.observerCount == 0, "the storage knows the owner: its subscriptions stop counting at once")
    // The shared form is listed process-wide: registering as many again as the list holds
    // (and the smallest sweep size) makes it reach its sweep size, which sweeps it. Other
    // tests share the list and may be sweeping it at that moment (one sweep runs at a time,
    // over the links it copied when it began), so a round that finds a sweep running is
    // followed by another; a bounded number of rounds, not a wait.
    let list = OwnerLifetimeList.shared
    let filler = ObservableEvent<Int>()
    let fillerOwner = LongLivedOwner()
    for _ in 0..<8 where event.observerCount != 0 {
      for _ in 0..<(list.count + OwnerLifetimeList.minimumSweepSize) {
        filler.map { $0 }.observe(with: fillerOwner) { _, _ in }
      }
    }
    #expect(event.observerCount == 0, "the sweep ended the dead owner's subscriptions")
    withExtendedLifetime((kept, fillerOwner)) {}
  }

  @Test("A kept token holds no handler once the storage ended its subscription: a count found the owner gone, or the event was released")
  func keptTokenHoldsNoHandlerOnceTheStorageEndedIt() {
    let tracker = LifetimeTracker()
    let shared = SharedEvent<Int>()
    var kept: [any Disposable] = []
    do {
      let owner = LongLivedOwner()
      let captured = tracker.make()
      kept.append(shared.observe(with: owner) { _, _ in captured.touch() })
    }
    #expect(shared.observerCount == 0, "the count removes the dead owner's subscription")
    #expect(tracker.liveCount == 0, "the kept token released the handler with it")
    #expect(kept.allSatisfy { $0.isDisposed })
    var released: SharedEvent<Int>? = SharedEvent<Int>()
    let owner = LongLivedOwner()
    do {
      let captured = tracker.make()
      kept.append(released!.observe(with: owner) { _, _ in captured.touch() })
    }
    released = nil
    #expect(tracker.liveCount == 0, "the released event's kept token released the handler")
    #expect(kept.allSatisfy { $0.isDisposed })
    withExtendedLifetime(owner) {}
  }

  @Test("Contract: when the list of bound subscriptions finds an owner gone, its subscriptions still running end")
  func sweepEndsTheSubscriptionsOfDeadOwners() {
    let tracker = LifetimeTracker()
    let property = Property(0)
    let event = ObservableEvent<Int>()
    let shared = SharedEvent<Int>()
    // A list of its own, so that the test decides when it sweeps.
    let list = OwnerLifetimeList()
    let survivor = LongLivedOwner()
    do {
      let owner = LongLivedOwner()
      let captured = tracker.make()
      let tokens: [any Disposable] = [
        event.map { $0 }.observe(with: owner) { _, _ in captured.touch() },
        shared.observe(with: owner) { _, _ in captured.touch() },
        property.map { $0 }.observe(with: owner) { _, _ in captured.touch() },
      ]
      let reference = WeakReference(owner)
      for token in tokens { list.add(owner: reference, token as AnyObject as! any AnyObject & Disposable) }
      #expect(property.isObserved && shared.isObserved && event.isObserved)
    }
    let alive = shared.observe(with: survivor) { _, _ in }
    for _ in 0..<OwnerLifetimeList.minimumSweepSize {
      list.add(owner: WeakReference(survivor), alive as AnyObject as! any AnyObject & Disposable)
    }
    #expect(!property.isObserved && !event.isObserved)
    #expect(shared.observerCount == 1, "only the survivor's subscription is left")
    #expect(tracker.liveCount == 0, "every handler of the dead owner was released")
    // Three entries of the dead owner, then 64 of the survivor's: the sweep at 64 dropped
    // the three, and three more came after it.
    #expect(list.count == OwnerLifetimeList.minimumSweepSize, "the dead owner's entries are gone: \(list.count)")
    alive.dispose()
  }

  @Test("Contract: a dead owner's subscription is swept by later owner-bound subscriptions on the same source, on every platform")
  func deadOwnersAreSwept() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    do {
      let owner = LongLivedOwner()
      let captured = tracker.make()
      event.observe(with: owner) { _, _ in captured.touch() }
    }
    #expect(tracker.liveCount == 1, "nothing has noticed yet")
    let owners = (0..<8).map { _ in LongLivedOwner() }
    for owner in owners { event.observe(with: owner) { _, _ in } }
    #expect(tracker.liveCount == 0, "the sweep ended the dead owner's subscription")
    #expect(event.observerCount == 8)
    withExtendedLifetime(owners) {}
  }
}
