/// An immutable weak reference that may cross threads.
///
/// Load `object` only outside our locks: the strong reference it returns may be the last
/// one, and releasing it runs the object's deinit.
@usableFromInline
final class WeakReference: @unchecked Sendable {
  // Immutable after init; the runtime loads weak references atomically.
  @usableFromInline weak let object: AnyObject?

  @usableFromInline
  init(_ object: AnyObject) {
    self.object = object
  }
}
