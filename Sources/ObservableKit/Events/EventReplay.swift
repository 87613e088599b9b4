/// The replay of an event made with `replay: n` (``ObservableEvent/init(replay:)``,
/// ``SharedEvent/init(replay:)``): the last `n` values, and the subscription that hands them
/// to a new observer before any live value.
///
/// Invariants:
/// - The ring is touched only under the lock of the event's storage: a notification records
///   its value in the critical section that takes its pass's snapshot, and a subscription
///   reads the ring in the critical section that adds it (`notify(_:recording:)`). So each
///   value reaches a new observer once: from the ring, or live.
/// - A live value that reaches the observer while its replay is still being delivered (a
///   notification from another thread, in the shared family) is held by the observer's
///   gate, and delivered by the replaying thread right after the replay, in order.
@usableFromInline
final class EventReplay<Value> {
  @usableFromInline let capacity: Int
  // Guarded by the storage lock of the event that owns this replay: `record` and `contents`
  // are only called inside that storage's `withLock`.
  @usableFromInline var ring: ContiguousArray<Value>
  @usableFromInline var oldest: Int

  @usableFromInline
  init(capacity: Int) {
    self.capacity = capacity
    ring = []
    oldest = 0
    ring.reserveCapacity(Swift.min(capacity, 64))
  }

  /// Stores `value`; returns the value it evicted, for the caller to release after the lock.
  /// Call with the storage lock held.
  @inlinable
  func record(_ value: Value) -> Value? {
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
    let (id, (backlog, epoch)) = storage.add(
      { _ in { value in if gate.admit(value) { handler(value) } } },
      reading: { _, _ in (contents(), storage.epoch) }
    )
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
    let (id, (backlog, epoch)) = storage.addOwnerBound(
      { id in
        let bound = OwnerBoundHandler(owner: owner, storage: storage, id: id) { owner, value in
          if gate.admit(value) { handler(owner, value) }
        }
        return ({ bound.call($0) }, bound)
      },
      reading: { _, _ in (contents(), storage.epoch) }
    )
    // The caller holds `owner` for the whole replay.
    replay(backlog, since: epoch, to: id, on: storage, through: gate) { handler(owner, $0) }
    return id
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

// `state` is only touched under its lock, and it holds values, not closures. The shared
// family hands its gates to @Sendable handlers.
extension ReplayGate: @unchecked Sendable where Value: Sendable {}
