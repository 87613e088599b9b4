import Dispatch

// The shared family's subscriptions that keep the handler's isolation or pick its target (a
// queue, the main actor) are deliveries built on its nonisolated one (see
// `SharedEventSource`): they live in Delivery/, so that Shared/ names no Delivery type.
extension SharedEventSource {
  /// Registers `handler` for this source's values. The handler keeps the isolation of the
  /// code that calls this method: a `@MainActor` class's handler runs on the main actor and
  /// may touch its state. See ``SharedEvent`` for when each kind of handler runs.
  ///
  /// In a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  ///
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  @inlinable
  public func observe(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Value) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(IsolatedDelivery.observe(handler) { observeNonisolated($0) }, fileID, line)
  }

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

extension SharedPropertySource {
  /// Registers `handler` for the values set from now on, without the current value. The
  /// handler keeps the isolation of the caller, as for
  /// ``SharedEventSource/observe(_:fileID:line:)``; in a debug build inside
  /// ObservableKitTesting's `withLeakCheck`, the subscription is named by `fileID:line`.
  @inlinable
  public func observeChanges(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Value) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(IsolatedDelivery.observe(handler) { observeChangesNonisolated($0) }, fileID, line)
  }
}
