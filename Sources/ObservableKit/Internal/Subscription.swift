/// The token `observe` returns: ends one registration in one storage.
///
/// A class, not a protocol, so that `DisposeBag` finds subscriptions with a class cast; the
/// generic subclass ``StorageSubscription`` knows the storage's types, so a client's
/// specialized `observe` gets specialized removal code.
@usableFromInline
class Subscription: Disposable, @unchecked Sendable {
  // Immutable; a subclass reaches its storage only under the storage's own lock.
  @usableFromInline init() {}

  @usableFromInline func dispose() {}

  @usableFromInline var isDisposed: Bool { true }

  /// Ends the registration without releasing its handler, and returns the handler for the
  /// caller to release once it is ready, so that a bag stops all its subscriptions before any
  /// captured state is deinitialized. Nil if it had ended already.
  @usableFromInline func stop() -> Any? { nil }
}

/// A subscription to an `ObserverStorage<Value, State>`.
@usableFromInline
final class StorageSubscription<Value, State>: Subscription, @unchecked Sendable {
  // Immutable; `storage` is only used under its own lock.
  @usableFromInline let storage: ObserverStorage<Value, State>
  @usableFromInline let id: UInt64

  @inlinable
  init(storage: ObserverStorage<Value, State>, id: UInt64) {
    self.storage = storage
    self.id = id
  }

  @inlinable
  override func dispose() {
    // The entry, with its handler, is released here, after the lock.
    _ = storage.removeEntry(id)
  }

  @inlinable
  override var isDisposed: Bool { !storage.contains(id) }

  @inlinable
  override func stop() -> Any? {
    storage.removeEntry(id)?.handler
  }
}
