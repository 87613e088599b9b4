import ObservableKitShims

/// A heap-allocated mutex that owns the state it guards, shaped like `Mutex` (which needs
/// newer OS versions than the package supports). Observer lists use ``ObserverListLock``,
/// which adds the words only they need.
///
/// The lock sits in the tail of one buffer with the state, so it never moves and costs no
/// second allocation. It is not recursive: never call user code inside `withLock`.
@usableFromInline
package struct Locked<State> {

  @usableFromInline
  final class Buffer: ManagedBuffer<State, okit_lock_t> {
    deinit {
      withUnsafeMutablePointerToElements { okit_lock_destroy($0) }
    }
  }

  @usableFromInline let buffer: Buffer

  @inlinable
  package init(_ initial: State) {
    buffer = unsafeDowncast(Buffer.create(minimumCapacity: 1) { _ in initial }, to: Buffer.self)
    buffer.withUnsafeMutablePointerToElements { okit_lock_init($0) }
  }

  @inlinable
  package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
    try buffer.withUnsafeMutablePointers { state, lock in
      okit_lock_lock(lock)
      defer { okit_lock_unlock(lock) }
      return try body(&state.pointee)
    }
  }
}

// `State` is only touched under the okit_lock_t mutex in the buffer's tail. Only a Sendable
// state makes the box Sendable: a box of plain closures stays with its owner's domain.
extension Locked: @unchecked Sendable where State: Sendable {}
