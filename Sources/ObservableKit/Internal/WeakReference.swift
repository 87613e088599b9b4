/// An immutable weak reference that may cross threads, with the identity of its object.
///
/// Load `object` only outside our locks: the strong reference it returns may be the last
/// one, and releasing it runs the object's deinit. `identity` and `===` on the reference
/// itself are safe anywhere.
@usableFromInline
package final class WeakReference: @unchecked Sendable {
  // Never written after init (`weak let` needs Swift 6.2); the runtime loads weak
  // references atomically.
  @usableFromInline package private(set) weak var object: AnyObject?
  /// The identity of the object, kept after it deallocates (its address may then be reused).
  @usableFromInline package let identity: ObjectIdentifier

  @inlinable
  package init(_ object: AnyObject) {
    self.object = object
    identity = ObjectIdentifier(object)
  }
}
