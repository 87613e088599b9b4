// The engine: this folder, `Internal/`. The map of the whole package (engine and features,
// with their dependency arrows, and where a change goes) is in CONTRIBUTING.md, "The map".
//   SubscriptionBag          the ordered subscription bag of both engines: order, id
//                            search, tombstones, compaction
//   ObserverListLock+Pass    the one pass: a snapshot, resumed if a removal ends a
//                            subscription
//   ObserverStorage          the engine behind every source: a bag of handlers; add, remove,
//                            count
//   ObserverStorage+Pass     the storage's passes over its handlers
//   ObserverStorage+Notify   notify, and the pass frame's queue for re-entrant notifications
//   PassFrame                the thread-local pass frame and modify marker
//   ObserverListLock         the bag's lock word (with the epoch, and a property's turn bits)
//   Locked                   a mutex that owns its state, for everything else
//   Subscription             the disposable a subscription returns
//   WeakReference, SchedulePoint   a weak reference that crosses threads; test hooks

/// The observer list behind every event and property: subscription, removal and counting.
/// The handlers, their order and compaction are a `SubscriptionBag`, passes in
/// `ObserverStorage+Pass.swift`, the pass frame in `ObserverStorage+Notify.swift`,
/// and the property's turn with the property.
///
/// Invariants:
/// - Handlers are kept in subscription order; removal is an id search and leaves a tombstone.
/// - No user code runs under the lock. Whatever leaves the guarded state (a removed handler,
///   an old value) is returned from the locked region and released by the caller.
/// - The epoch advances on every removal, and when a subscription's handler is replaced (a
///   main-actor subscription that makes its mailbox), so a pass in progress can tell with one
///   atomic load whether its snapshot may hold a handler that has ended or changed.
///
/// It is a value with reference semantics: copies share one buffer. It is not `Sendable`: its
/// handlers are plain closures, confined with their owner to one isolation domain. The lock
/// stays, so that Swift 5-mode code that shares an owner anyway gets no corruption, and so
/// that the shared family (``SharedEvent``, ``SharedProperty``), whose handlers are all
/// `@Sendable`, can share it.
@usableFromInline
package struct ObserverStorage<Value, State> {
  @usableFromInline package typealias Handler = (Value) -> Void

  @usableFromInline let locked: ObserverListLock<ObserverStorageHeader<Value, State>>

  @inlinable
  package init(state: State) {
    locked = ObserverListLock(ObserverStorageHeader(state: state))
  }

  /// Runs `body` with the lock held. `body` must not call user code or release anything
  /// that user code owns; return such things instead.
  @inlinable
  package func withLock<R>(_ body: (inout ObserverStorageHeader<Value, State>) throws -> R) rethrows -> R {
    try locked.withLock(body)
  }

  /// Marks the state changed for passes in progress. Call with the lock held.
  @inlinable
  package func advanceEpochLocked() {
    locked.advanceEpochLocked()
  }

  @inlinable
  var epoch: UInt64 { locked.epoch }

  /// The identity shared by every copy of this storage.
  @inlinable
  package var identity: AnyObject { locked.object }

  /// The `ObjectIdentifier` of ``identity``, read without retaining the buffer (a call that
  /// takes `identity` retains it: measured, one retain and release per property set).
  @inlinable
  package var objectID: ObjectIdentifier { ObjectIdentifier(locked.buffer) }

  /// The storage whose `identity` is `object`.
  @inlinable
  package init(unsafeIdentity object: AnyObject) {
    locked = ObserverListLock(unsafeObject: object)
  }

  // MARK: Subscription

  /// Registers the handler made by `makeHandler` and, under the same lock, runs `read` on the
  /// state. Both receive the new subscription's id.
  @inlinable
  package func add<R>(
    _ makeHandler: (UInt64) -> Handler,
    reading read: (inout State, UInt64) -> R
  ) -> (id: UInt64, read: R) {
    LiveSubscriptions.changed(by: 1)
    return withLock { header in
      let id = header.nextID
      header.nextID += 1
      header.bag.append(ObserverHandler(makeHandler(id)), id: id)
      return (id, read(&header.state, id))
    }
  }

  @inlinable
  package func add(_ handler: @escaping Handler) -> UInt64 {
    add({ _ in handler }, reading: { _, _ in () }).id
  }

  /// The storage's owner-bound subscription: `make` returns the handler and the link that
  /// holds its owner weakly. The subscription is counted only while the owner is alive, and
  /// ``removeAll(ownedBy:)`` finds it.
  ///
  /// The storage keeps the link beside the subscription (`owners`), so no record of the
  /// owner is needed: adding sweeps out the subscriptions of dead owners once the links have
  /// doubled since the last sweep, so a source observed by short-lived owners that never
  /// hear a value holds O(live owners) subscriptions, each freed without any value arriving.
  @inlinable
  package func addOwnerBound<R>(
    _ make: (UInt64) -> (handler: Handler, link: OwnerLink),
    reading read: (inout State, UInt64) -> R
  ) -> (id: UInt64, read: R) {
    LiveSubscriptions.changed(by: 1)
    let (result, sweep) = withLock { header -> ((id: UInt64, read: R), ContiguousArray<OwnerEntry>?) in
      let id = header.nextID
      header.nextID += 1
      let (handler, link) = make(id)
      header.bag.append(ObserverHandler(handler), id: id)
      let owners = header.owners ?? header.makeOwners()
      owners.bag.append(link, id: id)
      return ((id, read(&header.state, id)), owners.takeSweep())
    }
    if let sweep { sweepDeadOwners(sweep) }
    return result
  }

  /// Registers `handler` for as long as `owner` is alive, passing it in: one object
  /// (``OwnerBoundSubscription``) is the link, the handler's context and the owner check.
  @inlinable
  package func add<Owner: AnyObject>(owner: Owner, _ handler: @escaping (Owner, Value) -> Void) -> UInt64 {
    addOwnerBound(
      { [self] id in
        let bound = OwnerBoundSubscription(owner: owner, storage: self, id: id, handler: handler)
        return ({ bound.call($0) }, bound)
      },
      reading: { _, _ in () }
    ).id
  }

  /// Removes the subscriptions of dead owners among `owners`, a copy of the links taken by
  /// an add (``OwnerLinks/takeSweep()``), and sets the next sweep's size.
  ///
  /// Invariant where the lock is dropped: the weak loads happen here, outside the lock (a
  /// load may return the last reference to an owner, whose deinit may register or dispose
  /// here). Only one sweep runs at a time (the size is `Int.max` meanwhile); a subscription
  /// ended or added meanwhile is untouched: `remove` of an ended one does nothing.
  @usableFromInline
  func sweepDeadOwners(_ owners: ContiguousArray<OwnerEntry>) {
    schedulePoint("owners: sweeping a copy outside the lock")
    _ = removeDeadOwners(owners)
    withLock { header in header.owners?.sweepDone() }
  }

  /// Ends the subscription `id` and returns its handler, as the bag holds it, for the caller
  /// to release after the lock is gone. Returns nil if it had already ended.
  ///
  /// A link kept beside the subscription hears of it here, outside the lock
  /// (``OwnerLink/removed()``).
  @inlinable @discardableResult
  package func removeEntry(_ id: UInt64) -> ObserverHandler<Value>? {
    // Only a link that hears of its removal is carried out of the lock (see `endEntry`):
    // carrying every link, or a nil one, out of it cost a release call per disposal
    // (check-thresholds.sh, S3o and S8s).
    var link: OwnerLink?
    let entry = withLock { header -> ObserverHandler<Value>? in
      guard let handler = header.endEntry(id, hearing: &link) else { return nil }
      advanceEpochLocked()
      return handler
    }
    if entry != nil { LiveSubscriptions.changed(by: -1) }
    schedulePoint("storage.remove: the handler is released outside the lock")
    if let link { link.removed() }
    return entry
  }

  /// `removeEntry`, for callers that want the handler.
  @inlinable @discardableResult
  package func remove(_ id: UInt64) -> Handler? {
    removeEntry(id)?.call
  }

  /// Ends every subscription. The handlers are released after the lock is gone.
  @inlinable
  package func removeAll() {
    // The links are touched only if there are any: this runs unspecialized when a source is
    // released, where a copy of a nil reference still costs a retain and a release call.
    var links: OwnerLinks?
    let (removed, live) = withLock { header in
      let live = header.bag.liveCount
      let removed = (header.bag.removeAll(), live)
      if header.owners != nil { swap(&links, &header.owners) }
      advanceEpochLocked()
      return removed
    }
    LiveSubscriptions.changed(by: -live)
    // A source or hub going away: what its handlers captured (a delivery's feed, which
    // finishes the delivery) is released from here, while other threads may be draining.
    schedulePoint("storage.removeAll: the handlers are released outside the lock")
    withExtendedLifetime(removed) {}
    if let links {
      for entry in links.bag.entries { entry.payload?.storageEnded() }
      for entry in links.hearing.entries { entry.payload?.storageEnded() }
    }
  }

  /// The link that hears of the removal of subscription `id`, if it has one.
  @inlinable
  package func link(of id: UInt64) -> OwnerLink? {
    withLock { header in header.owners?.hearing.payload(of: id) }
  }

  @inlinable
  package func contains(_ id: UInt64) -> Bool {
    withLock { header in header.bag.payload(of: id) != nil }
  }

  /// The number of live subscriptions; owner-bound ones whose owner has deallocated are
  /// removed first, so they stop counting at once.
  @inlinable
  package var count: Int {
    let (live, owners) = withLock { header in
      (header.bag.liveCount, header.owners.flatMap { $0.bag.liveCount == 0 ? nil : $0.bag.entries })
    }
    guard let owners else { return live }
    return live - removeDeadOwners(owners)
  }

  /// Removes the subscriptions of `owners` whose owner has deallocated; returns how many of
  /// them there were. The weak loads happen here, outside the lock.
  ///
  /// Invariant where the lock is dropped: `owners` is a copy of the links of the live
  /// owner-bound subscriptions, taken with the live count the caller subtracts from. A dead
  /// owner's subscription counted in that live count whether this call or another removes
  /// it meanwhile, so every dead one found is subtracted, not only those this call removed
  /// (two concurrent counts would otherwise count it once more).
  @usableFromInline
  func removeDeadOwners(_ owners: ContiguousArray<OwnerEntry>) -> Int {
    var dead = 0
    for entry in owners {
      guard let link = entry.payload, link.owner == nil else { continue }
      schedulePoint("owners: a dead owner found outside the lock")
      remove(entry.id)
      link.storageEnded()
      dead += 1
    }
    return dead
  }

  /// Ends every subscription bound to `owner`, in subscription order.
  package func removeAll(ownedBy owner: AnyObject) {
    let owners = withLock { header in header.owners?.bag.entries ?? [] }
    // Loaded outside the lock, as in `removeDeadOwners`: a link to another owner may return
    // the last reference to it.
    let ended = owners.filter { $0.payload?.owner === owner }
    for entry in ended {
      remove(entry.id)
      entry.payload?.storageEnded()
    }
  }
}

/// The owner of an owner-bound subscription, held weakly: what the storage keeps beside the
/// subscription (``ObserverStorageHeader/owners``) to count, unsubscribe and sweep it. A
/// subscription's own object derives from it where one object can be the link, the handler's
/// context and the owner check (``OwnerBoundSubscription``), so the link costs no allocation.
///
/// Why no record per owner: a record has to be found from the owner, which costs a lookup
/// in a process-wide table (or, on Apple platforms, `objc_getAssociatedObject` under the
/// runtime's process-wide association lock) on every subscription. A link found from the
/// subscription costs none; the storage sweeps dead owners as it grows instead
/// (``ObserverStorage/addOwnerBound(_:reading:)``). The weak reference itself is what a
/// `[weak owner]` closure costs: on Apple platforms an owner that is an Objective-C object
/// (a view controller) goes through the runtime's weak table, for the closure array too.
@usableFromInline
package class OwnerLink {
  // Never written after init (`weak let` needs Swift 6.2); the runtime loads weak
  // references atomically. Load it only outside the storage lock: the strong reference a
  // load returns may be the last one.
  @usableFromInline package private(set) weak var owner: AnyObject?

  @inlinable
  package init(_ owner: AnyObject) {
    self.owner = owner
  }

  /// A link with no owner, kept among the links that hear of their removal
  /// (``OwnerLinks/hearing``): ``MainActorSubscription``'s mailbox.
  @inlinable
  package init() {}

  /// Called, outside the lock, once the storage has ended this subscription by itself: a
  /// sweep or a count found the owner gone, or the source let its subscriptions go. A link
  /// that is also the subscription's token (which its user may keep) releases what it holds
  /// of the handler here, as the storage released its own reference.
  @usableFromInline
  package func storageEnded() {}

  /// Called, outside the lock, on a link among those that hear of their removal
  /// (``OwnerLinks/hearing``), once the subscription's token removed it from the storage
  /// (`dispose()`, or a bag's stop). A link that holds what the subscription still has to
  /// deliver (``MainActorSubscription``'s mailbox) drops it here.
  @usableFromInline
  package func removed() {}
}

/// The subscription of ``ObserverStorage/add(owner:_:)``: its link, and the handler's
/// context (the closure the storage keeps captures only it, so it allocates nothing more).
/// The owner is loaded for each call and passed strongly; the first call that finds it gone
/// ends the subscription instead.
@usableFromInline
final class OwnerBoundSubscription<Owner: AnyObject, Value, State>: OwnerLink {
  @usableFromInline let storage: ObserverStorage<Value, State>
  @usableFromInline let id: UInt64
  @usableFromInline let handler: (Owner, Value) -> Void

  @inlinable
  init(owner: Owner, storage: ObserverStorage<Value, State>, id: UInt64, handler: @escaping (Owner, Value) -> Void) {
    self.storage = storage
    self.id = id
    self.handler = handler
    super.init(owner)
  }

  @inlinable
  func call(_ value: Value) {
    guard let owner else {
      storage.remove(id)
      return
    }
    handler(unsafeDowncast(owner, to: Owner.self), value)
  }
}

/// One owner-bound subscription as the storage keeps it beside the bag: its id and its
/// owner's link, nil once it ended.
@usableFromInline
package struct OwnerEntry: BagEntry {
  @usableFromInline package let id: UInt64
  @usableFromInline package var payload: OwnerLink?

  @inlinable
  package init(id: UInt64, payload: OwnerLink) {
    self.id = id
    self.payload = payload
  }
}

/// A registered handler, as the bag holds it. A struct, so that the closure keeps the
/// storage's abstraction: handed out whole (by `removeEntry`, by a pass), it is never
/// re-thunked (a handler returned as `(Value) -> Void` from specialized code is converted
/// back, which allocates), and a bag of bare closures would store them maximally abstracted.
@usableFromInline
package struct ObserverHandler<Value> {
  @usableFromInline package let call: (Value) -> Void

  @inlinable
  init(_ call: @escaping (Value) -> Void) {
    self.call = call
  }
}

/// One subscription of the storage's bag: its id and its handler, nil once it ended.
@usableFromInline
package struct ObserverEntry<Value>: BagEntry {
  @usableFromInline package let id: UInt64
  @usableFromInline package var payload: ObserverHandler<Value>?

  @inlinable
  package init(id: UInt64, payload: ObserverHandler<Value>) {
    self.id = id
    self.payload = payload
  }
}

/// Everything the storage lock guards.
@usableFromInline
package struct ObserverStorageHeader<Value, State> {
  /// Extra state of the owner (a property's value), guarded by the same lock so that
  /// "register and read the current value" is one atomic step. It comes first: a zero-size
  /// `State` at the end would share its address with the lock-free epoch that follows the
  /// header, and ThreadSanitizer would report accesses to it as races on the epoch.
  @usableFromInline package var state: State
  /// The handlers, in subscription order, with tombstones.
  @usableFromInline var bag = SubscriptionBag<ObserverEntry<Value>>()
  @usableFromInline var nextID: UInt64 = 1
  /// The links of the owner-bound subscriptions, made with the first one (see `OwnerLinks`).
  @usableFromInline var owners: OwnerLinks?

  @inlinable
  init(state: State) {
    self.state = state
  }

  /// Ends the subscription `id` and returns its handler (nil if it had ended), leaving a
  /// tombstone that the bag compacts in time; the caller advances the epoch.
  ///
  /// The subscription's link, if one was kept beside it, leaves too. An owner's link is
  /// released here, but never for the last time: the handler returned holds the
  /// subscription's object, which holds or is the link. One that hears of its removal
  /// (``OwnerLinks/hearing``) is stored in `link`, for the caller to tell
  /// (``OwnerLink/removed()``) and release after the lock.
  @inlinable
  package mutating func endEntry(_ id: UInt64, hearing link: inout OwnerLink?) -> ObserverHandler<Value>? {
    guard let handler = bag.remove(id) else { return nil }
    // One nil check on a source without links. A method of the links, called through the
    // optional, borrows them: binding them to a local retained them (check-thresholds.sh, S3o).
    owners?.remove(id, hearing: &link)
    return handler
  }

  /// ``endEntry(_:hearing:)`` for a subscription whose link is its own object, which hears
  /// nothing of its removal (`NonisolatedOwnerDelivery`): the same, without the `inout`
  /// (which cost a retain per disposal, check-thresholds.sh, S3os).
  @inlinable
  package mutating func endOwnEntry(_ id: UInt64) -> ObserverHandler<Value>? {
    guard let handler = bag.remove(id) else { return nil }
    _ = owners?.bag.remove(id)
    return handler
  }

  /// Replaces the handler of the live subscription `id`; returns false once it has ended.
  /// The old handler is released under the lock: the caller holds what it captured. The
  /// caller advances the epoch, so that a pass in progress takes the new one.
  @inlinable
  mutating func replaceHandler(of id: UInt64, with handler: ObserverHandler<Value>) -> Bool {
    bag.replace(id, with: handler)
  }

  /// Keeps `link` beside the live subscription `id`, among the links that hear of their
  /// removal: for a subscription that makes its link after it began (``MainActorSubscription``'s
  /// mailbox).
  @inlinable
  mutating func insertLink(_ link: OwnerLink, for id: UInt64) {
    (owners ?? makeOwners()).hearing.insert(link, id: id)
  }

  /// Makes the owners' links, for the first owner-bound subscription.
  @inlinable
  mutating func makeOwners() -> OwnerLinks {
    let made = OwnerLinks()
    owners = made
    return made
  }
}

/// The links of a storage's owner-bound subscriptions: the owner of each live one, in
/// subscription order, and when to sweep out dead owners. An object made with the first
/// owner-bound subscription, so that a source without owners pays one word and one nil check
/// per removal (a bag of links in the header itself made every source's header copy retain
/// its empty buffer: check-thresholds.sh at 2245a4d, 3 retains per `Property` made in S9).
/// Guarded by the storage's lock. Never load the links' owners under that lock: the strong
/// reference a load returns may be the last.
@usableFromInline
final class OwnerLinks {
  // Guarded by the storage's lock, which also makes the runtime exclusivity check redundant
  // (it cost two access checks per owner-bound add and removal: S3o churn, 2,261 instructions
  // with them at 41cc83d, 1,880 without them at 1e2ffd7, count-instructions.sh).
  @exclusivity(unchecked) @usableFromInline var bag = SubscriptionBag<OwnerEntry>()
  /// The links that hear of their subscription's removal by its token (``OwnerLink/removed()``)
  /// and of the storage's end: a main-actor subscription's mailbox (``MainActorSubscription``). They
  /// have no owner, so sweeps and counts never look at them.
  @exclusivity(unchecked) @usableFromInline var hearing = SubscriptionBag<OwnerEntry>()
  /// The number of links at which the next owner-bound add sweeps out dead owners;
  /// `Int.max` while a sweep runs.
  @exclusivity(unchecked) @usableFromInline var sweepAt = 8

  @inlinable
  init() {}

  /// A copy of the links for ``ObserverStorage/sweepDeadOwners(_:)`` once they have doubled
  /// since the last sweep; nil otherwise. One sweep at a time: it sets the next size.
  @inlinable
  func takeSweep() -> ContiguousArray<OwnerEntry>? {
    guard bag.liveCount >= sweepAt else { return nil }
    sweepAt = .max
    return bag.entries
  }

  /// Ends the links of subscription `id`: see ``ObserverStorageHeader/endEntry(_:hearing:)``.
  /// One count where no link hears.
  @inlinable
  func remove(_ id: UInt64, hearing link: inout OwnerLink?) {
    _ = bag.remove(id)
    if hearing.liveCount > 0, let removed = hearing.remove(id) { link = removed }
  }

  /// Sets the next sweep's size once a sweep is done.
  @usableFromInline
  func sweepDone() {
    sweepAt = max(8, 2 * bag.liveCount)
  }
}
