import Dispatch

// The queue form lives here, with the other code that uses Dispatch.
extension EventHub {
  /// Registers `handler` to be called on `queue`, asynchronously, in the order of the
  /// posts; see ``EventSource/observe(on:_:)-(DispatchQueue,_)``.
  public func observe<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: AnyObject? = nil,
    on queue: DispatchQueue,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(on: queue, handler)
  }
}
