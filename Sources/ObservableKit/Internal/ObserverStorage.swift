/// One registered handler. `handler == nil` marks a slot whose subscription ended; such
/// slots are compacted away once they outnumber the live ones.
@usableFromInline
package struct ObserverEntry<Value> {
  @usableFromInline package let id: UInt64
  @usableFromInline package var handler: ((Value) -> Void)?

  @inlinable
  init(id: UInt64, handler: ((Value) -> Void)?) {
    self.id = id
    self.handler = handler
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
  /// Live entries and tombstones, sorted by `id`, which is registration order.
  @usableFromInline var entries: ContiguousArray<ObserverEntry<Value>> = []
  @usableFromInline var nextID: UInt64 = 1
  @usableFromInline var tombstones = 0
  /// The owner of each owner-bound registration. Never load these references under the
  /// lock: the strong reference a load returns may be the last one.
  @usableFromInline var owners: [UInt64: WeakReference] = [:]

  @inlinable
  init(state: State) {
    self.state = state
  }

  @inlinable var liveCount: Int { entries.count - tombstones }

  /// Ends the registration `id` and returns its entry (nil if it had ended), leaving a
  /// tombstone; the caller advances the epoch and calls ``compactIfNeeded()``.
  ///
  /// It hands out the whole entry rather than the handler: the entry's closure keeps the
  /// storage's abstraction, so nothing is re-thunked (a handler returned as
  /// `(Value) -> Void` from specialized code is converted back, which allocates).
  @inlinable
  package mutating func endEntry(_ id: UInt64) -> ObserverEntry<Value>? {
    guard let index = index(of: id), entries[index].handler != nil else { return nil }
    let entry = entries[index]
    entries[index].handler = nil
    tombstones += 1
    // Skips hashing `id` for the usual registration, which has no owner.
    if !owners.isEmpty { owners[id] = nil }
    return entry
  }

  /// Drops the tombstones once they are at least half of the entries. Tombstones hold no
  /// handlers, so this releases nothing but buffer memory.
  @inlinable
  package mutating func compactIfNeeded() {
    if tombstones >= 8, tombstones * 2 >= entries.count {
      entries.removeAll { $0.handler == nil }
      tombstones = 0
    }
  }

  @inlinable
  func index(of id: UInt64) -> Int? {
    let index = entries.lowerBound(of: id)
    return index < entries.count && entries[index].id == id ? index : nil
  }
}

extension RandomAccessCollection where Index == Int {
  /// The first index whose element's id is not less than `id`, in a collection sorted by
  /// unique ids.
  ///
  /// Ids are handed out in sequence and removed at random, so they are spread evenly over
  /// their range: a probe where `id` would sit if they were (interpolation) usually lands on
  /// it or next to it, which keeps removal O(1) and touches one or two cache lines however
  /// many registrations there are. Interpolation and bisection alternate, so the worst case,
  /// uneven ids, stays O(log n).
  @inlinable
  func lowerBound(of id: UInt64, by elementID: (Element) -> UInt64) -> Int {
    var low = startIndex
    var high = endIndex
    var interpolate = true
    while low < high {
      let lowID = elementID(self[low])
      if lowID >= id { return low }
      let highID = elementID(self[high - 1])
      if highID < id { return high }
      if highID == id { return high - 1 }
      // Now lowID < id < highID, so the last index is past low and the division is safe.
      let middle: Int
      if interpolate {
        let fraction = Double(id - lowID) / Double(highID - lowID)
        middle = low + Int(fraction * Double(high - 1 - low))
      } else {
        middle = low + (high - low) / 2
      }
      interpolate.toggle()
      let middleID = elementID(self[middle])
      if middleID == id { return middle }
      if middleID < id { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

extension ContiguousArray {
  /// The first index whose entry has an id not less than `id`.
  @inlinable
  func lowerBound<V>(of id: UInt64) -> Int where Element == ObserverEntry<V> {
    lowerBound(of: id) { $0.id }
  }
}

/// The observer list behind every event, property and protocol-observer class.
///
/// Invariants:
/// - Handlers are kept in registration order; removal is O(log n) and leaves a tombstone.
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

  /// Takes the delivery turn if nobody holds it, the usual case: one atomic operation.
  @inlinable
  package func tryTakeTurn() -> Bool {
    locked.tryTakeTurn()
  }

  /// Takes the delivery turn (true), or asks the thread that holds it to deliver again
  /// before it lets go (false). Owners that deliver on one thread at a time use it.
  @inlinable
  package func takeTurnOrRequest() -> Bool {
    locked.takeTurnOrRequest()
  }

  /// Lets go of the delivery turn (true), or keeps it because another thread asked for a
  /// new pass (false).
  @inlinable
  package func releaseTurn() -> Bool {
    locked.releaseTurn()
  }

  /// Whether this thread is inside a pass of this storage (it holds the turn, if the owner
  /// uses one): the queue for notifications made from inside it.
  @inlinable
  package var currentPassQueue: UnsafeMutablePointer<ContiguousArray<Value>?>? {
    DeliveryFrame.queue(of: identity, as: Value.self)
  }

  /// The identity shared by every copy of this storage.
  @inlinable
  package var identity: AnyObject { locked.object }

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
      header.entries.append(ObserverEntry(id: id, handler: makeHandler(id)))
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

  /// Ends the subscription `id` and returns its entry, whose handler the caller releases
  /// after the lock is gone. Returns nil if it had already ended.
  @inlinable @discardableResult
  package func removeEntry(_ id: UInt64) -> ObserverEntry<Value>? {
    let entry = withLock { header -> ObserverEntry<Value>? in
      guard let entry = header.endEntry(id) else { return nil }
      advanceEpochLocked()
      header.compactIfNeeded()
      return entry
    }
    if entry != nil { Diagnostics.subscriptionsChanged(by: -1) }
    schedulePoint("storage.remove: the handler is released outside the lock")
    return entry
  }

  /// `removeEntry`, for callers that want the handler.
  @inlinable @discardableResult
  package func remove(_ id: UInt64) -> Handler? {
    removeEntry(id)?.handler
  }

  /// Ends every subscription. The handlers are released after the lock is gone.
  @inlinable
  package func removeAll() {
    let (removed, live) = withLock { header in
      let removed = (header.entries, header.liveCount)
      header.entries = []
      header.tombstones = 0
      header.owners = [:]
      advanceEpochLocked()
      return removed
    }
    Diagnostics.subscriptionsChanged(by: -live)
    withExtendedLifetime(removed) {}
  }

  @inlinable
  package func contains(_ id: UInt64) -> Bool {
    withLock { header in header.index(of: id).map { header.entries[$0].handler != nil } ?? false }
  }

  /// The number of live registrations; owner-bound ones whose owner has deallocated are
  /// removed first, so they stop counting at once.
  @inlinable
  package var count: Int {
    let (live, owners) = withLock { header in (header.liveCount, header.owners) }
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
    let ids = withLock { header in header.owners.filter { $0.value.identity == key }.map(\.key) }
    for id in ids { remove(id) }
  }

  // MARK: Delivery

  /// Delivers `value` to every handler, in registration order, on this thread.
  ///
  /// A notification that arrives from inside a handler on this thread is queued and
  /// delivered after the current pass; see ``withNewDeliveryFrame(_:)``.
  @inlinable
  package func notify(_ value: Value) {
    if let queue = currentPassQueue {
      Self.enqueue(value, in: queue)
      return
    }
    withNewDeliveryFrame { deliver(value) }
  }

  /// Queues `value` behind the pass in progress on this thread, whose queue
  /// ``currentPassQueue`` returned.
  @inlinable
  package static func enqueue(_ value: Value, in queue: UnsafeMutablePointer<ContiguousArray<Value>?>) {
    if queue.pointee == nil { queue.pointee = [value] } else { queue.pointee!.append(value) }
  }

  /// Runs `body` as a pass of this storage on this thread: notifications of this storage
  /// made on this thread while it runs are queued (see ``currentPassQueue``), and delivered
  /// in order, each with a fresh snapshot, when it returns.
  @inlinable
  package func withNewDeliveryFrame(_ body: () -> Void) {
    var queue: ContiguousArray<Value>? = nil
    withUnsafeMutablePointer(to: &queue) { queue in
      DeliveryFrame.push(owner: identity, queue: queue) {
        body()
        schedulePoint("frame: draining the notifications queued during the pass")
        var next = 0
        while let pending = queue.pointee, next < pending.count {
          let value = pending[next]
          next += 1
          deliver(value)
        }
      }
    }
  }

  /// What a pass starts from: the entries, the epoch they belong to, and the first id the
  /// pass must not reach (registrations made after the pass began).
  @usableFromInline
  package struct Snapshot {
    @usableFromInline let entries: ContiguousArray<ObserverEntry<Value>>
    @usableFromInline let epoch: UInt64
    @usableFromInline let boundary: UInt64

    @inlinable
    init(entries: ContiguousArray<ObserverEntry<Value>>, epoch: UInt64, boundary: UInt64) {
      self.entries = entries
      self.epoch = epoch
      self.boundary = boundary
    }
  }

  /// The snapshot a pass beginning now starts from. Call with the lock held, so that an
  /// owner can take it in the same critical section as its own change.
  @inlinable
  package func snapshotLocked(_ header: ObserverStorageHeader<Value, State>) -> Snapshot {
    Snapshot(entries: header.entries, epoch: epoch, boundary: header.nextID)
  }

  /// Hands every live handler to `body` now, on this thread, in registration order, even
  /// from inside another pass of this storage: nested calls are not queued. For APIs whose
  /// contract is a synchronous visit (the compatibility layer's `withObservers`), which call
  /// each handler with a value of their own making.
  @inlinable
  package func forEachHandler(_ body: (Handler) -> Void) {
    forEachHandler(in: withLock { snapshotLocked($0) }, body)
  }

  /// Hands the live handlers of `snapshot` to `body`, in registration order.
  ///
  /// Before each call it checks the epoch; if a subscription ended since the snapshot, it
  /// takes a fresh one and resumes after the last handler it reached, never reaching
  /// handlers registered after the pass began.
  @inlinable
  package func forEachHandler(in snapshot: borrowing Snapshot, _ body: (Handler) -> Void) {
    // The snapshot is borrowed, not copied: a pass retains no buffer of its own unless a
    // subscription ends during it.
    var resume = forEachHandler(in: snapshot.entries, from: 0, snapshot, body)
    while let id = resume {
      schedulePoint("storage.pass: a subscription ended; taking a fresh snapshot")
      let (entries, epoch) = withLock { header in (header.entries, self.epoch) }
      let refreshed = Snapshot(entries: entries, epoch: epoch, boundary: snapshot.boundary)
      resume = forEachHandler(in: refreshed.entries, from: entries.lowerBound(of: id), refreshed, body)
    }
  }

  /// Hands the live handlers of `entries`, from `start` on, to `body`; returns the id to
  /// resume at if a subscription ended meanwhile (the epoch moved), nil once done.
  @inlinable
  func forEachHandler(
    in entries: borrowing ContiguousArray<ObserverEntry<Value>>,
    from start: Int,
    _ snapshot: borrowing Snapshot,
    _ body: (Handler) -> Void
  ) -> UInt64? {
    var index = start
    while index < entries.count {
      let id = entries[index].id
      if id >= snapshot.boundary { return nil }
      guard let handler = entries[index].handler else {
        index += 1
        continue
      }
      schedulePoint("storage.pass: before a call")
      if epoch != snapshot.epoch { return id }
      body(handler)
      index += 1
    }
    return nil
  }

  /// One pass with `value` over a snapshot taken now.
  @inlinable
  func deliver(_ value: Value) {
    forEachHandler { $0(value) }
  }
}
