import ObservableKitShims

/// The lock of an observer list: a ``Locked`` plus an epoch that passes load without the
/// lock (it moves on every removal) and, for a property, the turn (see
/// `Property+Turn.swift`). Only the observer lists pay for these. On Linux the turn's two
/// bits share the mutex's futex word, so that a set lets go of the lock and takes the turn
/// in one atomic operation (`withLockTryingTurn`).
///
/// The lock sits in the tail of one buffer with the state, so it never moves and costs no
/// second allocation. It is not recursive: never call user code inside `withLock`.
@usableFromInline
package struct ObserverListLock<State> {

  @usableFromInline
  final class Buffer: ManagedBuffer<State, okit_sync_t> {
    deinit {
      withUnsafeMutablePointerToElements { okit_sync_destroy($0) }
    }
  }

  @usableFromInline let buffer: Buffer

  @inlinable
  init(_ initial: State) {
    buffer = unsafeDowncast(Buffer.create(minimumCapacity: 1) { _ in initial }, to: Buffer.self)
    buffer.withUnsafeMutablePointerToElements { okit_sync_init($0) }
  }

  /// Wraps the buffer of another copy (the `object` of a lock of the same type).
  @inlinable
  init(unsafeObject object: AnyObject) {
    buffer = unsafeDowncast(object, to: Buffer.self)
  }

  /// The identity of the underlying buffer, shared by every copy of this value.
  @inlinable var object: AnyObject { buffer }

  @inlinable
  func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try buffer.withUnsafeMutablePointers { state, sync in
      okit_sync_lock(sync)
      defer { okit_sync_unlock(sync) }
      return try body(&state.pointee)
    }
  }

  /// Runs `body` with the lock held. If `body` returns true beside its result, the lock is
  /// let go of and the turn taken if nobody holds it, as one step (one atomic operation on
  /// Linux: see `okit_sync_unlock_and_try_take_turn`); the second value says whether the turn
  /// was taken. Otherwise the lock is let go of alone and the second value is false.
  @inlinable
  func withLockTryingTurn<R>(_ body: (inout State) -> (R, tryTurn: Bool)) -> (R, turnTaken: Bool) {
    buffer.withUnsafeMutablePointers { state, sync in
      okit_sync_lock(sync)
      let (result, tryTurn) = body(&state.pointee)
      guard tryTurn else {
        okit_sync_unlock(sync)
        return (result, false)
      }
      return (result, okit_sync_unlock_and_try_take_turn(sync))
    }
  }

  /// Advances the epoch. Call with the lock held.
  @inlinable
  func advanceEpochLocked() {
    buffer.withUnsafeMutablePointerToElements { okit_sync_advance_epoch($0) }
  }

  /// Takes the turn if nobody holds it. Call without the lock.
  @inlinable
  func tryTakeTurn() -> Bool {
    buffer.withUnsafeMutablePointerToElements { okit_sync_try_take_turn($0) }
  }

  /// Takes the turn (true), or asks its holder to deliver again (false).
  /// Call without the lock.
  @inlinable
  func takeTurnOrRequest() -> Bool {
    buffer.withUnsafeMutablePointerToElements { okit_sync_take_turn_or_request($0) }
  }

  /// Lets go of the turn (true), or keeps it to serve a request (false).
  @inlinable
  func releaseTurn() -> Bool {
    buffer.withUnsafeMutablePointerToElements { okit_sync_release_turn($0) }
  }

  /// Stores the flags, a word of the state's mirrored for loads without the lock. Call with
  /// the lock held.
  @inlinable
  func storeFlagsLocked(_ flags: UInt32) {
    buffer.withUnsafeMutablePointerToElements { okit_sync_store_flags($0, flags) }
  }

  /// The flags, loaded without the lock.
  @inlinable
  var flags: UInt32 {
    buffer.withUnsafeMutablePointerToElements { okit_sync_load_flags($0) }
  }

  /// The epoch, loaded without the lock.
  @inlinable
  var epoch: UInt64 {
    buffer.withUnsafeMutablePointerToElements { okit_sync_load_epoch($0) }
  }
}

// `State` is only touched under the okit_sync_t mutex in the buffer's tail; Sendable only
// with a Sendable state, as for `Locked`.
extension ObserverListLock: @unchecked Sendable where State: Sendable {}
