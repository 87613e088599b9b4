import Dispatch

extension EventSource where Value: Sendable {
  /// Registers `handler` to be called on `queue`, asynchronously, in the order the values
  /// were delivered.
  ///
  /// Each value is handed to the queue when the source delivers it; the handler never runs
  /// on the notifying thread, even if that thread is running `queue`. Calls for one
  /// subscription never overlap and keep their order, also on a concurrent queue. Once
  /// `dispose()` returns, no call starts, even for values already queued.
  public func observe(on queue: DispatchQueue, _ handler: @escaping @Sendable (Value) -> Void) -> any Disposable {
    QueueDelivery.observe(self, on: queue, handler)
  }

  /// Registers a main-actor handler, called on the main queue, asynchronously, in order.
  ///
  /// ```swift
  /// model.score.observe(on: MainActor.shared) { score in label.text = "\(score)" }
  /// ```
  ///
  /// The handler is typed `@MainActor`, so UI code compiles without `assumeIsolated`. Every
  /// value is delivered asynchronously through the main queue, also when it is notified on
  /// the main thread, so values never overtake one another. Once `dispose()` returns, no
  /// call starts. The main queue must be running (an app, `dispatchMain()`, or an async
  /// `main`).
  public func observe(
    on _: MainActor,
    _ handler: @escaping @MainActor (Value) -> Void
  ) -> any Disposable {
    QueueDelivery.observe(self, on: .main) { value in
      MainActor.assumeIsolated { handler(value) }
    }
  }
}
