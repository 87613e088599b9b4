/// One subscriber of a property: what it calls (`call`, a struct holding the handler) and the
/// newest version it has been called with.
///
/// It is the context of the closure the storage keeps for the subscriber (a closure whose
/// only capture is one class reference uses that object as its context), so a subscription
/// costs this one object besides the storage's entry: the version check and the handler
/// need no closure of their own. Its token is an ``InlineSubscription``, a value.
///
/// `lastVersion` is read and written only by the thread holding the property's delivery
/// turn, which is handed from thread to thread with acquire-release atomics, so no lock is
/// needed; the one write outside a turn, at subscription, is made under the storage lock
/// before the subscriber can be reached by any pass.
///
/// The handler sits in a struct (`Property.ValueCall`, `Property.SubscriberCall`), not in a
/// field of type `Call` itself: a closure stored as a generic type is stored at its most
/// general abstraction, which wraps it in one more allocated thunk per subscription (S8p's
/// bytes per live subscription show it). A struct's `(T) -> Void` field takes the handler as `observe` received it.
@usableFromInline
final class PropertySubscriber<Call> {
  // Not Sendable: a property's handlers are plain closures. `lastVersion` is guarded by the
  // property's turn (see above), which also makes the runtime exclusivity check
  // redundant.
  @exclusivity(unchecked) @usableFromInline var lastVersion: UInt64 = 0
  @usableFromInline let call: Call

  @inlinable
  init(_ call: Call) {
    self.call = call
  }

  /// Records `version` and returns true if it is newer than every version delivered so far.
  @inlinable
  func advance(to version: UInt64) -> Bool {
    guard version > lastVersion else { return false }
    lastVersion = version
    return true
  }
}
