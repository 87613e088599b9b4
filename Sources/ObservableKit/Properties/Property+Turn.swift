/// How a property delivers: one thread at a time.
///
/// The thread that sets a property takes the storage's turn and delivers. If
/// another thread holds the turn, the setter leaves a request and returns; the holder
/// makes one more pass with the value that is current when its pass ends. Each subscriber
/// skips versions it is not newer than, so calls never overlap, never go back in time,
/// and end on the final value. A set from inside a pass on the holding thread is queued
/// behind that pass instead (the thread already holds the turn).
///
/// What a set costs, and why it stays above the locked closure array. An uncontended atomic
/// operation costs more than many instructions, and a set is bound by them more than by its
/// instructions. The closure array makes six: its lock and unlock, and a
/// retain and a release each of its snapshot and of the handler it calls. A set here makes
/// seven: the same four reference counts (the set retains its snapshot, and the compiler
/// retains each handler it loads from the snapshot to call it), the lock, the unlock that
/// also takes the turn (one operation on Linux: `withLockTryingTurn`), and the turn's
/// release, which must stay a read-modify-write: a request left by another thread between
/// a load and a plain store would be lost, and with it a value. S2 in count-instructions.sh
/// and run.sh measures the difference (Benchmarks/README.md has the current figures). Six
/// would take a pass that calls each handler without retaining it, which closures stored in
/// the bag's array do not allow.
extension Property {
  @usableFromInline typealias Storage = ObserverStorage<PropertyUpdate<T>, PropertyState<T>>

  /// Delivers `update`, a set whose `snapshot` was taken in the same critical section;
  /// `turnTaken` says whether the set took the turn as it let go of the lock (see
  /// ``ObserverStorage/withLockTryingTurn(_:)``), the usual case.
  @inlinable @inline(__always)
  func publish(_ update: PropertyUpdate<T>, from snapshot: Storage.Snapshot, turnTaken: Bool) {
    if turnTaken {
      withTurn { storage.forEachHandler(in: snapshot) { $0(update) } }
      return
    }
    // The turn was held when the set let go of the lock: by this thread (a set from inside
    // a handler), or by another one.
    if let queue = storage.currentPassQueue {
      // Deliver after the pass in progress on this thread, in order.
      Storage.enqueue(update, in: queue)
    } else if storage.takeTurnOrRequest() {
      withTurn { storage.forEachHandler(in: snapshot) { $0(update) } }
    } else {
      schedulePoint("property.turn: a request left for the holder")
    }
  }

  @usableFromInline
  enum Turn {
    /// This call took the turn; it must deliver, then let go with `withTurn`.
    case taken
    /// A pass of this property is in progress on this thread, with this queue.
    case heldByThisThread(UnsafeMutablePointer<ContiguousArray<PropertyUpdate<T>>?>)
    /// Another thread holds the turn and will make one more pass with the current value.
    case requested
  }

  /// Takes the turn, or finds that this thread holds it, or asks its holder for
  /// one more pass. Only the holder pushes pass frames for a property, so a frame of
  /// this storage on this thread means the turn is this thread's; it is looked up only
  /// when the turn is taken, which keeps the thread-local walk off the uncontended path.
  @inlinable
  func takeTurn() -> Turn {
    if storage.tryTakeTurn() { return .taken }
    if let queue = storage.currentPassQueue { return .heldByThisThread(queue) }
    return storage.takeTurnOrRequest() ? .taken : .requested
  }

  /// Runs `pass` holding the turn, then the passes queued from inside it, then one pass
  /// with the current value per request from another thread, and lets go of the turn.
  @inlinable
  func withTurn(_ pass: () -> Void) {
    storage.withNewPassFrame(pass)
    schedulePoint("property.turn: releasing the turn")
    if !storage.releaseTurn() { serveRequests() }
  }

  /// Makes one pass with the current value per request from another thread, holding the
  /// turn, and lets go of it. Out of line: the usual set has no request to serve.
  @inlinable @inline(never)
  func serveRequests() {
    repeat {
      schedulePoint("property.turn: serving a request with the current value")
      let (current, snapshot) = storage.withLock { header in
        (header.state.current, storage.snapshotLocked(header))
      }
      storage.withNewPassFrame {
        storage.forEachHandler(in: snapshot) { $0(current) }
      }
    } while !storage.releaseTurn()
  }

  /// Replays `current` to the one subscription `deliver` serves, holding the turn.
  @inlinable
  func replay(_ current: PropertyUpdate<T>, with deliver: (PropertyUpdate<T>) -> Void) {
    switch takeTurn() {
    case .taken:
      withTurn { deliver(current) }
    case .heldByThisThread:
      // Replay at once, inside the pass in progress on this thread.
      deliver(current)
    case .requested:
      // The holder delivers the current value once more; only this new subscription has
      // not seen it.
      break
    }
  }
}

/// The turn, in the storage's lock word: only properties take it.
extension ObserverStorage {
  /// Runs `body` with the lock held; if it asks to (its second value), lets go of the lock
  /// and takes the turn if nobody holds it in one step, and says whether it did. A set
  /// takes its turn this way: one atomic operation on Linux where an unlock and a take make
  /// two, and nothing can come between them.
  @inlinable
  package func withLockTryingTurn<R>(
    _ body: (inout ObserverStorageHeader<Value, State>) -> (R, tryTurn: Bool)
  ) -> (R, turnTaken: Bool) {
    locked.withLockTryingTurn(body)
  }

  /// Takes the turn if nobody holds it, the usual case: one atomic operation.
  @inlinable
  package func tryTakeTurn() -> Bool {
    locked.tryTakeTurn()
  }

  /// Takes the turn (true), or asks the thread that holds it to deliver again
  /// before it lets go (false). Owners that deliver on one thread at a time use it.
  @inlinable
  package func takeTurnOrRequest() -> Bool {
    locked.takeTurnOrRequest()
  }

  /// Lets go of the turn (true), or keeps it because another thread asked for a
  /// new pass (false).
  @inlinable
  package func releaseTurn() -> Bool {
    locked.releaseTurn()
  }
}
