// The engine: this folder, `Internal/`. The map of the whole package (engine and features,
// with their dependency arrows, and where a change goes) is in CONTRIBUTING.md, "The map".
//   RegistrationBag          the ordered registration bag of both engines: order, id
//                            search, tombstones, compaction
//   ObserverListLock+Pass    the one pass: a snapshot, resumed if a removal ends a
//                            registration
//   ObserverStorage          the engine behind every source: a bag of handlers; add, remove,
//                            count
//   ObserverStorage+Pass     the storage's passes over its handlers
//   ObserverStorage+Notify   notify, and the pass frame's queue for re-entrant notifications
//   PassFrame                the thread-local pass frame and modify marker
//   ObserverListLock         the bag's lock word (with the epoch, and a property's turn bits)
//   Locked                   a mutex that owns its state, for everything else
//   Subscription             the disposable a registration returns
//   WeakReference, SchedulePoint   a weak reference that crosses threads; test hooks

/// The observer list behind every event and property: registration, removal and counting.
/// The handlers, their order and compaction are a `RegistrationBag`, passes in
/// `ObserverStorage+Pass.swift`, the pass frame in `ObserverStorage+Notify.swift`,
/// and the property's turn with the property.
///
/// Invariants:
/// - Handlers are kept in registration order; removal is an id search and leaves a tombstone.
/// - No user code runs under the lock. Whatever leaves the guarded state (a removed handler,
///   an old value) is returned from the locked region and released by the caller.
/// - The epoch advances on every removal, so a pass in progress
///   can tell with one atomic load whether its snapshot may hold a handler that has ended.
///
/// It is a value with reference semantics: copies share one buffer. It is not `Sendable`: its
/// handlers are plain closures, confined with their owner to one isolation domain. The lock
/// stays, so that Swift 5-mode code that shares an owner anyway gets no corruption, and so
/// that the `Sendable` family (``SharedEvent``, ``SharedProperty``), whose handlers are all
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

  // MARK: Registration

  /// Registers the handler made by `makeHandler` and, under the same lock, runs `read` on the
  /// state. Both receive the new registration's id. A registration with an `owner` is
  /// counted only while the owner is alive.
  @inlinable
  package func add<R>(
    _ makeHandler: (UInt64) -> Handler,
    owner: WeakReference? = nil,
    reading read: (inout State, UInt64) -> R
  ) -> (id: UInt64, read: R) {
    Diagnostics.subscriptionsChanged(by: 1)
    return withLock { header in
      let id = header.nextID
      header.nextID += 1
      header.bag.append(ObserverHandler(makeHandler(id)), id: id)
      if let owner { header.owners[id] = owner }
      return (id, read(&header.state, id))
    }
  }

  @inlinable
  package func add(_ handler: @escaping Handler) -> UInt64 {
    add({ _ in handler }, reading: { _, _ in () }).id
  }

  /// The one owner-bound registration path. Registers `handler` for as long as `owner` is
  /// alive (for good without one) and, under the same lock, runs `read` on the state.
  ///
  /// `owner` is held weakly. Each call loads it and passes it strongly to `handler` (nil
  /// without an owner); the first call that finds it gone ends the registration instead, and
  /// ``count`` stops counting it at once. Returns the registered handler too, for a replay.
  @inlinable
  package func add<R>(
    owner: AnyObject?,
    _ handler: @escaping (AnyObject?, Value) -> Void,
    reading read: (inout State, UInt64) -> R
  ) -> (id: UInt64, handler: Handler, read: R) {
    let reference = owner.map(WeakReference.init)
    var registered: Handler?
    let (id, result) = add(
      { [self] id in
        let made: Handler = { value in
          guard let reference else { return handler(nil, value) }
          guard let owner = reference.object else {
            remove(id)
            return
          }
          handler(owner, value)
        }
        registered = made
        return made
      },
      owner: reference,
      reading: read
    )
    return (id, registered!, result)
  }

  /// The token of registration `id`; bound to `owner`'s life where the platform allows.
  @inlinable
  package func token(for id: UInt64, owner: AnyObject?) -> any Disposable {
    let token = Subscription(storage: self, id: id)
    if let owner { OwnerLifetime.bind(token, to: owner) }
    return token
  }

  /// Ends the subscription `id` and returns its handler, as the bag holds it, for the caller
  /// to release after the lock is gone. Returns nil if it had already ended.
  @inlinable @discardableResult
  package func removeEntry(_ id: UInt64) -> ObserverHandler<Value>? {
    let entry = withLock { header -> ObserverHandler<Value>? in
      guard let entry = header.endEntry(id) else { return nil }
      advanceEpochLocked()
      return entry
    }
    if entry != nil { Diagnostics.subscriptionsChanged(by: -1) }
    schedulePoint("storage.remove: the handler is released outside the lock")
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
    let (removed, live) = withLock { header in
      let live = header.bag.liveCount
      let removed = (header.bag.removeAll(), live)
      header.owners = [:]
      advanceEpochLocked()
      return removed
    }
    Diagnostics.subscriptionsChanged(by: -live)
    // A source or hub going away: what its handlers captured (a delivery's feed, which
    // finishes the delivery) is released from here, while other threads may be draining.
    schedulePoint("storage.removeAll: the handlers are released outside the lock")
    withExtendedLifetime(removed) {}
  }

  @inlinable
  package func contains(_ id: UInt64) -> Bool {
    withLock { header in header.bag.payload(of: id) != nil }
  }

  /// The number of live registrations; owner-bound ones whose owner has deallocated are
  /// removed first, so they stop counting at once.
  @inlinable
  package var count: Int {
    let (live, owners) = withLock { header in (header.bag.liveCount, header.owners) }
    if owners.isEmpty { return live }
    return live - removeDeadOwners(owners)
  }

  /// Removes the registrations of `owners` whose owner has deallocated; returns how many of
  /// them there were. The weak loads happen here, outside the lock.
  ///
  /// Invariant where the lock is dropped: `owners` is a copy taken with the live count the
  /// caller subtracts from. A dead owner's registration counted in that live count whether
  /// this call or another removes it meanwhile, so every dead one found is subtracted, not
  /// only those this call removed (two concurrent counts would otherwise count it once more).
  @usableFromInline
  func removeDeadOwners(_ owners: [UInt64: WeakReference]) -> Int {
    var dead = 0
    for (id, owner) in owners where owner.object == nil {
      schedulePoint("owners: a dead owner found outside the lock")
      remove(id)
      dead += 1
    }
    return dead
  }

  /// Ends every registration bound to the owner `key`.
  package func removeAll(ownedBy key: ObjectIdentifier) {
    // In registration order: a dictionary's order changes from one instance to the next,
    // which made the schedule explorer's runs of one interleaving differ.
    let ids = withLock { header in header.owners.filter { $0.value.identity == key }.map(\.key) }.sorted()
    for id in ids { remove(id) }
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

/// One registration of the storage's bag: its id and its handler, nil once it ended.
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
  /// The handlers, in registration order, with tombstones.
  @usableFromInline var bag = RegistrationBag<ObserverEntry<Value>>()
  @usableFromInline var nextID: UInt64 = 1
  /// The owner of each owner-bound registration. Never load these references under the
  /// lock: the strong reference a load returns may be the last one.
  @usableFromInline var owners: [UInt64: WeakReference] = [:]

  @inlinable
  init(state: State) {
    self.state = state
  }

  /// Ends the registration `id` and returns its handler (nil if it had ended), leaving a
  /// tombstone that the bag compacts in time; the caller advances the epoch.
  @inlinable
  package mutating func endEntry(_ id: UInt64) -> ObserverHandler<Value>? {
    guard let handler = bag.remove(id) else { return nil }
    // Skips hashing `id` for the usual registration, which has no owner.
    if !owners.isEmpty { owners[id] = nil }
    return handler
  }
}
