/// Anything of the shared family that can be observed from any isolation domain:
/// ``SharedEvent``, ``SharedProperty`` and their read-only views and operator chains.
///
/// Its one requirement is the nonisolated subscription. Everything else is defined once, on
/// top of it: ``observe(_:fileID:line:)``, whose handler keeps the caller's isolation, owner-bound
/// observation, queue and main-actor delivery, ``values``, and the operators.
///
/// See ``SharedEvent`` for where and when each kind of handler runs.
public protocol SharedEventSource<Value>: Sendable {
  /// The type of value the source delivers.
  associatedtype Value: Sendable

  /// Registers `handler`, called synchronously on the notifying thread, concurrently when
  /// notifications come from several threads.
  ///
  /// - Returns: A disposable that ends this subscription.
  func observeNonisolated(_ handler: @escaping @Sendable (Value) -> Void) -> any Disposable
}

/// A ``SharedEventSource`` with a current value, replayed to each new observer.
public protocol SharedPropertySource<Value>: SharedEventSource {
  /// The current value.
  var value: Value { get }

  /// Registers `handler` for the values set from now on, without the replay; see
  /// ``SharedEventSource/observeNonisolated(_:)``.
  func observeChangesNonisolated(_ handler: @escaping @Sendable (Value) -> Void) -> any Disposable
}

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

  /// A view of this source that others can observe but not notify.
  public var readOnly: SharedReadOnlyEvent<Value> { SharedReadOnlyEvent(self) }
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
