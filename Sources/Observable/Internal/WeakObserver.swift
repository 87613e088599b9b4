/// A weak reference to one registered observer, shared by all of its registrations.
///
/// Load `object` only outside the storage lock: the strong reference it returns may be the
/// last one, and releasing it runs the observer's deinit. Its identity (`===`) and
/// `identity` may be used under the lock; neither loads the weak reference.
final class WeakObserver: @unchecked Sendable {
  // Immutable after init; the runtime loads weak references atomically.
  weak let object: AnyObject?
  /// The observer's identity, which keys its registrations.
  let identity: ObjectIdentifier

  init(_ object: AnyObject) {
    self.object = object
    identity = ObjectIdentifier(object)
  }
}
