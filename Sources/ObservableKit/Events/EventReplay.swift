/// The replay of an event made with `replay: n` (``ObservableEvent/init(replay:)``,
/// ``SharedEvent/init(replay:)``, and their `scope:` forms): the last `n` values, and the
/// subscription that hands them to a new observer before any live value.
///
/// Invariants:
/// - The ring is touched only under the lock of the event's storage: a notification records
///   its value in the critical section that takes its pass's snapshot, and a subscription
///   reads the ring in the critical section that adds it (`notify(_:recording:)`). So each
///   value reaches a new observer once: from the ring, or live.
/// - A live value that reaches the observer while its replay is still being delivered (a
///   notification from another thread, in the shared family) is held by the observer's
///   gate, and delivered by the replaying thread right after the replay, in order.
/// How long the values of an event made with `replay:` are kept.
///
/// ```swift
/// let screenState = ObservableEvent<State>(replay: 1, scope: .whileObserved)
/// ```
public enum ReplayScope: Sendable {
  /// For the event's life (the default): a new observer hears the last values even if
  /// nobody observed the event since they were notified.
  case forever
  /// While the event has an observer: when the last subscription ends (disposed, by its
  /// bag, or found with its owner gone), the values are released, and a value notified
  /// while nobody observes is not kept. RxSwift's `share(replay:)` default.
  case whileObserved
}

@usableFromInline
final class EventReplay<Value> {
  @usableFromInline let capacity: Int
  /// Whether values are kept while nobody observes (``ReplayScope/forever``).
  @usableFromInline let keepsUnobserved: Bool
  // Guarded by the storage lock of the event that owns this replay: `record` and `contents`
  // are only called inside that storage's `withLock`.
  @usableFromInline var ring: ContiguousArray<Value>
  @usableFromInline var oldest: Int
  /// The live subscriptions of a `.whileObserved` replay, guarded by the storage lock:
  /// counted in the critical section that adds one, uncounted when its `ReplayMember`
  /// hears of its end. Always 0 for a `.forever` replay, which keeps no members.
  @usableFromInline var members = 0

  @usableFromInline
  init(capacity: Int, scope: ReplayScope = .forever) {
    self.capacity = capacity
    keepsUnobserved = scope == .forever
    ring = []
    oldest = 0
    ring.reserveCapacity(Swift.min(capacity, 64))
  }

  /// Stores `value`, unless nobody observes a `.whileObserved` event; returns the value it
  /// evicted, for the caller to release after the lock. Call with the storage lock held.
  @inlinable
  func record(_ value: Value) -> Value? {
    // Dropped whole, not stored: a value notified while nobody observes is not kept.
    if !keepsUnobserved, members == 0 { return value }
    if ring.count < capacity {
      ring.append(value)
      return nil
    }
    let evicted = ring[oldest]
    ring[oldest] = value
    oldest = oldest + 1 == capacity ? 0 : oldest + 1
    return evicted
  }

  /// The recorded values, oldest first. Call with the storage lock held.
  @inlinable
  func contents() -> ContiguousArray<Value> {
    if oldest == 0 { return ring }
    var contents = ContiguousArray(ring[oldest...])
    contents.append(contentsOf: ring[..<oldest])
    return contents
  }

  /// Empties the ring; returns what it held, for the caller to release after the lock.
  /// Call with the storage lock held.
  func removeAll() -> ContiguousArray<Value> {
    defer {
      ring = []
      oldest = 0
    }
    return ring
  }

  /// Notifies `storage`'s handlers of `value`, recording it. Specialized in the client but
  /// not inlined, so that a plain event's notification does not carry it.
  @inlinable @inline(never)
  func notify<State>(_ value: Value, in storage: ObserverStorage<Value, State>) {
    storage.notify(value, recording: record)
  }

  /// Registers `handler` on `storage`, then hands it the recorded values, oldest first,
  /// before any live value. Returns the subscription's id.
  ///
  /// The replay runs inside a pass frame of the storage, so a notification that a replayed
  /// handler makes is delivered after the replay, as one made from inside a pass is.
  @inlinable
  func register<State>(
    on storage: ObserverStorage<Value, State>,
    _ handler: @escaping (Value) -> Void
  ) -> UInt64 {
    let gate = ReplayGate<Value>()
    // The epoch is read with the subscription: a removal after it (a dispose, the source's
    // end) advances it.
    let (id, (backlog, epoch, _)) = storage.add(
      { _ in { value in if gate.admit(value) { handler(value) } } },
      reading: { _, _ in (contents(), storage.epoch, join()) }
    )
    listen(to: id, on: storage)
    replay(backlog, since: epoch, to: id, on: storage, through: gate, handler)
    return id
  }

  /// ``register(on:_:)`` bound to `owner`, as the storage's owner-bound subscription is: the
  /// owner is held weakly, and the subscription ends at the first value that finds it gone.
  @inlinable
  func register<State, Owner: AnyObject>(
    on storage: ObserverStorage<Value, State>,
    owner: Owner,
    _ handler: @escaping (Owner, Value) -> Void
  ) -> UInt64 {
    let gate = ReplayGate<Value>()
    let (id, (backlog, epoch, _)) = storage.addOwnerBound(
      { id in
        let bound = OwnerBoundSubscription(owner: owner, storage: storage, id: id) { owner, value in
          if gate.admit(value) { handler(owner, value) }
        }
        return ({ bound.call($0) }, bound)
      },
      reading: { _, _ in (contents(), storage.epoch, join()) }
    )
    listen(to: id, on: storage)
    // The caller holds `owner` for the whole replay.
    replay(backlog, since: epoch, to: id, on: storage, through: gate) { handler(owner, $0) }
    return id
  }

  /// Counts a new subscription of a `.whileObserved` replay; call in the critical section
  /// that adds it (beside the ring's read in `reading:`). Returns whether it counted.
  @inlinable
  func join() -> Bool {
    guard !keepsUnobserved else { return false }
    members += 1
    return true
  }

  /// Keeps a `ReplayMember` beside the subscription `id` of a `.whileObserved` replay, among
  /// the links that hear of their removal, so that every way it ends uncounts it: its token
  /// (`dispose()`, a bag), the storage finding its owner gone (a count, a sweep, a value),
  /// the source's end. Done right after the add, in a second hold of the lock: if the
  /// subscription ended in between (only the source's end can), it is uncounted here.
  @inlinable
  func listen<State>(to id: UInt64, on storage: ObserverStorage<Value, State>) {
    guard !keepsUnobserved else { return }
    let member = ReplayMember(self, storage: storage)
    let isLive = storage.withLock { header -> Bool in
      guard header.bag.payload(of: id) != nil else { return false }
      header.insertLink(member, for: id)
      return true
    }
    if !isLive { member.left() }
  }

  /// One subscription of a `.whileObserved` replay ended; the last one empties the ring.
  /// Called outside the lock, once per subscription (see `ReplayMember`).
  func left<State>(on storage: ObserverStorage<Value, State>) {
    let dropped = storage.withLock { _ -> ContiguousArray<Value> in
      members -= 1
      return members == 0 ? removeAll() : []
    }
    // Released after the lock: a value's deinit is user code.
    withExtendedLifetime(dropped) {}
  }

  /// Hands `backlog` to the subscription `id`, then the live values its gate held meanwhile,
  /// until the gate opens.
  @inlinable
  func replay<State>(
    _ backlog: ContiguousArray<Value>,
    since epoch: UInt64,
    to id: UInt64,
    on storage: ObserverStorage<Value, State>,
    through gate: ReplayGate<Value>,
    _ handler: (Value) -> Void
  ) {
    schedulePoint("replay: registered; delivering the replay outside the lock")
    storage.withNewPassFrame(recording: record) {
      // Repeated until the gate finds nothing held and opens, also after an empty replay:
      // live values may have reached the subscription since it was added.
      var pending = backlog
      // The epoch advances on every removal: the subscription is looked up again only then.
      var seen = epoch
      repeat {
        for value in pending {
          // A handler that disposes its subscription during the replay hears no more of it.
          let now = storage.epoch
          if now != seen {
            guard storage.contains(id) else { return gate.close() }
            seen = now
          }
          handler(value)
        }
        schedulePoint("replay: a batch replayed; taking the live values held meanwhile")
        pending = gate.takeHeldOrOpen()
      } while !pending.isEmpty
    }
  }
}

/// A subscription of a `.whileObserved` replay, as the storage's links that hear of their
/// removal (``OwnerLinks/hearing``) hold it: it has no owner, so sweeps and counts never
/// look at it. It hears of the subscription's end once: by its token (`removed()`, called
/// by every `removeEntry`, whoever removed it), or by the storage's end (`storageEnded()`).
@usableFromInline
final class ReplayMember<Value, State>: OwnerLink {
  @usableFromInline let replay: EventReplay<Value>
  @usableFromInline let storage: ObserverStorage<Value, State>
  // Written once, outside the storage lock, by the one call that hears the end: a link
  // leaves the hearing bag under that lock, so only one removal returns it; `storageEnded`
  // comes only from `removeAll`, which takes the links out of the bag first.
  @usableFromInline var hasLeft = false

  @inlinable
  init(_ replay: EventReplay<Value>, storage: ObserverStorage<Value, State>) {
    self.replay = replay
    self.storage = storage
    super.init()
  }

  @usableFromInline
  func left() {
    guard !hasLeft else { return }
    hasLeft = true
    replay.left(on: storage)
  }

  @usableFromInline override func removed() { left() }
  @usableFromInline override func storageEnded() { left() }
}

/// What one replaying subscription holds back: the live values that reached it while its
/// replay was still being delivered.
@usableFromInline
final class ReplayGate<Value> {
  @usableFromInline
  struct State {
    @usableFromInline var isReplaying = true
    @usableFromInline var held: ContiguousArray<Value> = []

    @inlinable init() {}
  }

  @usableFromInline let state: Locked<State>

  @inlinable
  init() {
    state = Locked(State())
  }

  /// Whether a live `value` may be delivered now; otherwise it is held for the replaying
  /// thread.
  @inlinable
  func admit(_ value: Value) -> Bool {
    state.withLock { state in
      guard state.isReplaying else { return true }
      state.held.append(value)
      return false
    }
  }

  /// The values held so far, or none, and then the gate is open for live values.
  @inlinable
  func takeHeldOrOpen() -> ContiguousArray<Value> {
    state.withLock { state in
      if state.held.isEmpty { state.isReplaying = false }
      defer { state.held = [] }
      return state.held
    }
  }

  /// Opens the gate for good and drops what it held: the subscription has ended.
  @inlinable
  func close() {
    let dropped = state.withLock { state in
      state.isReplaying = false
      defer { state.held = [] }
      return state.held
    }
    withExtendedLifetime(dropped) {}
  }
}

// Checked: the one stored property, `state`, is a `Locked` box, whose mutex guards the
// state, and the state holds values, not closures. The shared family hands its gates to
// @Sendable handlers.
extension ReplayGate: Sendable where Value: Sendable {}
extension ReplayGate.State: Sendable where Value: Sendable {}
