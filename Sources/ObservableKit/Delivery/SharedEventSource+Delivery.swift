import Dispatch

extension SharedEventSource {
  /// Registers `handler` to be called on `queue`, asynchronously, in order; see
  /// ``EventSource/observe(on:_:)-(DispatchQueue,_)``.
  public func observe(on queue: DispatchQueue, _ handler: @escaping @Sendable (Value) -> Void) -> any Disposable {
    QueueDelivery(queue: queue, handler: handler) { observeNonisolated($0) }
  }

  /// Registers a main-actor handler, whatever the caller's isolation: called at once when the
  /// value comes on the main thread and nothing of this subscription waits, otherwise on the
  /// main queue, in order; see ``EventSource/observe(on:_:)-(MainActor,_)``.
  @inlinable
  public func observe(
    on _: MainActor,
    _ handler: @escaping @MainActor (Value) -> Void
  ) -> any Disposable {
    MainActorDelivery(handler: handler) { observeNonisolated($0) }
  }
}
