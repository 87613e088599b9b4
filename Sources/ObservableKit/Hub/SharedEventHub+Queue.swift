import Dispatch

// The queue form lives here, with the other code that uses Dispatch.
extension SharedEventHub {
  /// Registers `handler` to be called on `queue`, asynchronously, in the order of the posts.
  public func observe<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    on queue: DispatchQueue,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(on: queue, handler)
  }
}
