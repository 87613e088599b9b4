import ObservableKitShims

/// One of two thread-local markers for one storage:
/// - a **pass frame** (with a queue): this thread is inside a pass of the storage, and the
///   queue collects the storage's re-entrant notifications, delivered after the pass;
/// - a **modify marker** (no queue): this thread is running the closure of
///   `Property.modify` for the storage, so a nested set of the same property is refused.
///
/// Frames live on the stack of the call that pushed them and are linked through a
/// thread-local pointer, so detecting re-entrancy costs no lock and no allocation.
///
/// Why the queue is a raw pointer: the frame is found through the thread-local from code
/// that knows the storage's value type but not the frame's, so the queue is erased. A typed
/// alternative is a class box per pass, one malloc per notification, where a notification
/// allocates nothing today (S1's malloc threshold is 0). The pointer is rebound only by the
/// storage whose identity the frame carries, which pushed it with that very type.
@usableFromInline
struct PassFrame {
  @usableFromInline let owner: ObjectIdentifier
  /// The re-entrancy queue of a pass frame; nil for a modify frame.
  @usableFromInline let queue: UnsafeMutableRawPointer?
  @usableFromInline let previous: UnsafeMutableRawPointer?

  @inlinable
  init(owner: ObjectIdentifier, queue: UnsafeMutableRawPointer?, previous: UnsafeMutableRawPointer?) {
    self.owner = owner
    self.queue = queue
    self.previous = previous
  }

  /// Pushes a pass frame for the owner whose identity is `owner` for the duration of
  /// `body`. Identities, not objects, so that no caller retains its storage to ask.
  @inlinable
  static func push<Value>(
    owner: ObjectIdentifier,
    queue: UnsafeMutablePointer<ContiguousArray<Value>?>,
    _ body: () -> Void
  ) {
    withFrame(owner: owner, queue: UnsafeMutableRawPointer(queue), body)
  }

  /// Pushes a modify marker: this thread runs a modify closure of `owner` for the duration
  /// of `body`.
  static func whileModifying<R>(_ owner: AnyObject, _ body: () throws -> R) rethrows -> R {
    try withFrame(owner: ObjectIdentifier(owner), queue: nil, body)
  }

  @inlinable
  static func withFrame<R>(owner: ObjectIdentifier, queue: UnsafeMutableRawPointer?, _ body: () throws -> R) rethrows -> R {
    var frame = PassFrame(owner: owner, queue: queue, previous: okit_current_frame())
    return try withUnsafeMutablePointer(to: &frame) { frame in
      okit_set_current_frame(frame)
      defer { okit_set_current_frame(frame.pointee.previous) }
      return try body()
    }
  }

  /// The re-entrancy queue of the owner whose identity is `id` if this thread is delivering
  /// for it.
  @inlinable
  static func queue<Value>(
    of id: ObjectIdentifier,
    as _: Value.Type
  ) -> UnsafeMutablePointer<ContiguousArray<Value>?>? {
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: PassFrame.self)
      if frame.pointee.owner == id, let queue = frame.pointee.queue {
        return queue.assumingMemoryBound(to: ContiguousArray<Value>?.self)
      }
      cursor = frame.pointee.previous
    }
    return nil
  }

  /// Whether this thread is running a modify closure of the owner whose identity is `id`.
  @inlinable
  static func isModifying(_ id: ObjectIdentifier) -> Bool {
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: PassFrame.self)
      if frame.pointee.owner == id, frame.pointee.queue == nil { return true }
      cursor = frame.pointee.previous
    }
    return false
  }
}
