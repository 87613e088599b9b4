/// The newest version of a property that one subscriber has been called with.
///
/// Only the thread holding the property's delivery turn reads or writes it, and the turn is
/// handed from thread to thread with acquire-release atomics, so no lock is needed; the one
/// write outside a turn, at registration, is made under the storage lock before the
/// subscriber can be reached by any pass.
@usableFromInline
final class SubscriberProgress {
  // Not Sendable: a property's handlers are plain closures now, so nothing needs to vouch for
  // it. `lastVersion` is guarded by the property's delivery turn (see above), which also
  // makes the runtime exclusivity check redundant.
  @exclusivity(unchecked) @usableFromInline var lastVersion: UInt64 = 0

  @inlinable
  init() {}

  /// Records `version` and returns true if it is newer than every version delivered so far.
  @inlinable
  func advance(to version: UInt64) -> Bool {
    guard version > lastVersion else { return false }
    lastVersion = version
    return true
  }
}
