import ObservableKitShims

/// A marker that a thread is inside a delivery pass of one storage, with the queue that
/// collects re-entrant notifications of that storage.
///
/// Frames live on the stack of the delivering call and are linked through a thread-local
/// pointer, so detecting re-entrancy costs no lock and no allocation.
@usableFromInline
struct DeliveryFrame {
  @usableFromInline let owner: ObjectIdentifier
  @usableFromInline let queue: UnsafeMutableRawPointer
  @usableFromInline let previous: UnsafeMutableRawPointer?

  @inlinable
  init(owner: ObjectIdentifier, queue: UnsafeMutableRawPointer, previous: UnsafeMutableRawPointer?) {
    self.owner = owner
    self.queue = queue
    self.previous = previous
  }

  /// Pushes a frame for `owner` for the duration of `body`.
  @inlinable
  static func push<Value>(
    owner: AnyObject,
    queue: UnsafeMutablePointer<ContiguousArray<Value>>,
    _ body: () -> Void
  ) {
    var frame = DeliveryFrame(
      owner: ObjectIdentifier(owner),
      queue: UnsafeMutableRawPointer(queue),
      previous: okit_current_frame()
    )
    withUnsafeMutablePointer(to: &frame) { frame in
      okit_set_current_frame(frame)
      defer { okit_set_current_frame(frame.pointee.previous) }
      body()
    }
  }

  /// The re-entrancy queue of `owner` if this thread is delivering for it.
  @inlinable
  static func queue<Value>(
    of owner: AnyObject,
    as _: Value.Type
  ) -> UnsafeMutablePointer<ContiguousArray<Value>>? {
    let id = ObjectIdentifier(owner)
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: DeliveryFrame.self)
      if frame.pointee.owner == id {
        return frame.pointee.queue.assumingMemoryBound(to: ContiguousArray<Value>.self)
      }
      cursor = frame.pointee.previous
    }
    return nil
  }
}
