/// The token `observe` returns: ends one registration in one storage.
///
/// Not generic: its removal runs through closures made where the storage's types are known,
/// so that a client's specialized `observe` gets specialized removal code.
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
    self.init(object: storage.identity, id: id) { object, id, operation in
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
  init(object: AnyObject, id: UInt64, operate: @escaping Operator) {
    self.object = object
    self.id = id
    self.operate = operate
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
