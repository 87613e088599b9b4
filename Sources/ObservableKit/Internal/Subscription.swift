/// The token `observe` returns: ends one subscription in one storage. A value: the storage
/// rides as the context of its operations closure, so the whole token is three words and fits
/// in the inline buffer of `any Disposable`. Returning it allocates nothing.
///
/// Not generic: its removal runs through a closure made where the storage's types are known,
/// so that a client's specialized `observe` gets specialized removal code.
//
// Why a closure, not a class with a generic subclass per storage type: a subclass's
// overrides are reached through the vtable, which holds the generic, unspecialized bodies.
// That was tried (eb53be9) and reverted (9b2803d) when the thresholds caught it: a disposal
// in teardown went from 4 to 13 retains, a DisposeBag entry gained 7. A closure made in the
// client's inlinable `observe` is specialized there and carries no context. Every
// subscription returns one, owner-bound ones too: the storage keeps the owner's link beside
// the subscription, so nothing needs to hold the token (the class token the owner records
// held weakly is gone with them).
@usableFromInline
struct InlineSubscription: Disposable {
  /// `.dispose` ends the subscription and releases the handler (after the lock); `.stop`
  /// ends it and returns the handler's entry; `.check` returns a non-nil value while the
  /// subscription is live; `.link` returns the link that hears of its removal, if any (a
  /// main-actor subscription's mailbox, for the tests' count of drains).
  @usableFromInline enum Operation: Sendable { case dispose, stop, check, link }

  @usableFromInline let id: UInt64
  /// Captures only the storage buffer, which therefore is the closure's context (a closure
  /// whose one capture is a class reference needs no context object of its own).
  @usableFromInline let operate: @Sendable (UInt64, Operation) -> Any?

  @inlinable
  init<Value, State>(storage: ObserverStorage<Value, State>, id: UInt64) {
    self.id = id
    // The buffer is only used under its own lock.
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
      case .link:
        return storage.link(of: id)
      }
    }
  }

  @inlinable
  func dispose() {
    _ = operate(id, .dispose)
  }

  @inlinable
  var isDisposed: Bool { operate(id, .check) == nil }

  /// Stops delivery and returns what must be released once the caller is ready, so that a
  /// bag stops all its subscriptions before any captured state is deinitialized.
  @inlinable
  func stop() -> Any? {
    operate(id, .stop)
  }
}
