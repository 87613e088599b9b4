import Dispatch

extension EventSource where Value: Sendable {
  /// Registers `handler` to be called on `queue`, asynchronously, in the order the values
  /// were delivered.
  ///
  /// Each value is handed to the queue when the source delivers it; the handler never runs
  /// on the notifying thread, even if that thread is running `queue`. Calls for one
  /// subscription never overlap and keep their order, also on a concurrent queue. Once
  /// `dispose()` returns, no value is taken for a call, not even one already queued (a call
  /// that the queue had already begun may finish).
  public func observe(on queue: DispatchQueue, _ handler: @escaping @Sendable (Value) -> Void) -> any Disposable {
    QueueDelivery(queue: queue, handler: handler) { observe($0) }
  }

  /// Registers a main-actor handler: called at once when the value comes on the main actor
  /// and nothing of this subscription waits, otherwise enqueued to the main actor, in order.
  ///
  /// ```swift
  /// model.score.observe(on: MainActor.shared) { score in label.text = "\(score)" }
  /// ```
  ///
  /// The handler is typed `@MainActor`, so UI code compiles without `assumeIsolated`. A
  /// value notified on the main actor is delivered before the notification returns (a
  /// property's replay too, so a label shows the current value right after `observe`). A
  /// value notified elsewhere is enqueued to the main actor, and a value that comes while
  /// earlier ones still wait goes behind them: calls never overlap and never change order.
  /// Once `dispose()` returns, no value is taken for a call. Values that wait need the main
  /// actor to run (an app, `dispatchMain()`, or an async `main`).
  @inlinable
  public func observe(
    on _: MainActor,
    _ handler: @escaping @MainActor (Value) -> Void
  ) -> any Disposable {
    MainActorDelivery(handler: handler) { observe($0) }
  }
}
