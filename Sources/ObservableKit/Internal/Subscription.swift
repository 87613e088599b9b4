/// The token `observe` returns: ends one registration in one storage.
///
/// Not generic: its removal runs through closures made where the storage's types are known,
/// so that a client's specialized `observe` gets specialized removal code.
//
// Why a closure table, not a class with a generic subclass per storage type: a subclass's
// overrides are reached through the vtable, which holds the generic, unspecialized bodies.
// That was tried (eb53be9) and reverted (9b2803d) when the thresholds caught it: a disposal
// in teardown went from 4 to 13 retains, a DisposeBag entry gained 7. A closure made in the
// client's inlinable `observe` is specialized there and carries no context.
@usableFromInline
final class Subscription: Disposable, @unchecked Sendable {
  // Immutable; `object` is an ObserverStorage buffer, only ever used under its own lock.
  @usableFromInline enum Operation: Sendable { case dispose, stop, check }
  /// Made where the storage's types are known. `.dispose` ends the registration and releases
  /// the handler (after the lock); `.stop` ends it and returns the handler's entry; `.check`
  /// returns a non-nil value while the registration is live.
  @usableFromInline typealias Operator = @Sendable (AnyObject, UInt64, Operation) -> Any?

  @usableFromInline let object: AnyObject
  @usableFromInline let id: UInt64
  @usableFromInline let operate: Operator

  @inlinable
  convenience init<Value, State>(storage: ObserverStorage<Value, State>, id: UInt64) {
    self.init(object: storage.identity, id: id, operate: Subscription.operations(of: storage))
  }

  @usableFromInline
  init(object: AnyObject, id: UInt64, operate: @escaping Operator) {
    self.object = object
    self.id = id
    self.operate = operate
  }

  /// The operations on registrations of `storage`'s type, specialized where it is called.
  @inlinable
  static func operations<Value, State>(of storage: ObserverStorage<Value, State>) -> Operator {
    { object, id, operation in
      let storage = ObserverStorage<Value, State>(unsafeIdentity: object)
      switch operation {
      case .dispose:
        _ = storage.removeEntry(id)
        return nil
      case .stop:
        return storage.removeEntry(id)
      case .check:
        return storage.contains(id) ? () : nil
      }
    }
  }

  @usableFromInline
  func dispose() {
    _ = operate(object, id, .dispose)
  }

  @usableFromInline
  var isDisposed: Bool { operate(object, id, .check) == nil }

  /// Stops delivery and returns what must be released once the caller is ready, so that a
  /// bag stops all its subscriptions before any captured state is deinitialized.
  @usableFromInline
  func stop() -> Any? {
    operate(object, id, .stop)
  }
}

/// A token like ``Subscription`` that is a value: the storage rides as the context of its
/// operations closure, so the whole token is three words and fits in the inline buffer of
/// `any Disposable`. Returning it allocates nothing.
///
/// Every registration of a storage returns one, owner-bound ones too: the storage keeps the
/// owner's link beside the registration, so nothing needs to hold the token.
@usableFromInline
struct InlineSubscription: Disposable {
  @usableFromInline let id: UInt64
  /// Captures only the storage buffer, which therefore is the closure's context (a closure
  /// whose one capture is a class reference needs no context object of its own).
  @usableFromInline let operate: @Sendable (UInt64, Subscription.Operation) -> Any?

  @inlinable
  init<Value, State>(storage: ObserverStorage<Value, State>, id: UInt64) {
    self.id = id
    // The buffer is only used under its own lock, as for `Subscription.object`.
    nonisolated(unsafe) let object = storage.identity
    operate = { id, operation in
      let storage = ObserverStorage<Value, State>(unsafeIdentity: object)
      switch operation {
      case .dispose:
        _ = storage.removeEntry(id)
        return nil
      case .stop:
        return storage.removeEntry(id)
      case .check:
        return storage.contains(id) ? () : nil
      }
    }
  }

  @inlinable
  func dispose() {
    _ = operate(id, .dispose)
  }

  @inlinable
  var isDisposed: Bool { operate(id, .check) == nil }

  /// See ``Subscription/stop()``.
  @inlinable
  func stop() -> Any? {
    operate(id, .stop)
  }
}
