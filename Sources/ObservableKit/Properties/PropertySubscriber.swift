/// One subscriber of a property: its handler and the newest version it has been called with.
///
/// It is the context of the closure the storage keeps for the subscriber (a closure whose
/// only capture is one class reference uses that object as its context), so a registration
/// costs this one object besides the storage's entry: the version check and the handler
/// need no closure of their own. Its token is an ``InlineSubscription``, a value.
///
/// `lastVersion` is read and written only by the thread holding the property's delivery
/// turn, which is handed from thread to thread with acquire-release atomics, so no lock is
/// needed; the one write outside a turn, at registration, is made under the storage lock
/// before the subscriber can be reached by any pass.
@usableFromInline
final class PropertySubscriber<Handler> {
  // Not Sendable: a property's handlers are plain closures. `lastVersion` is guarded by the
  // property's delivery turn (see above), which also makes the runtime exclusivity check
  // redundant.
  @exclusivity(unchecked) @usableFromInline var lastVersion: UInt64 = 0
  @usableFromInline let handler: Handler

  @inlinable
  init(_ handler: Handler) {
    self.handler = handler
  }

  /// Records `version` and returns true if it is newer than every version delivered so far.
  @inlinable
  func advance(to version: UInt64) -> Bool {
    guard version > lastVersion else { return false }
    lastVersion = version
    return true
  }
}
