/// A ``SharedPropertySource`` that can be read and observed but not set: a derived property
/// such as `shared.map { … }`, or the read-only view of a ``SharedProperty``.
///
/// ```swift
/// final class Session: Sendable {
///   private let _state = SharedProperty(ConnectionState.offline)
///   var state: SharedReadOnlyProperty<ConnectionState> { _state.readOnly }
/// }
/// ```
///
/// It holds no state of its own: ``value`` reads through to the upstream property (a
/// derived value is computed again on each read, on the reading thread), and observing it
/// observes the upstream property, so each handler follows the rules of ``SharedProperty``
/// (see ``SharedEventSource/observe(_:fileID:line:)``). Disposing the subscription releases the chain.
public struct SharedReadOnlyProperty<Value: Sendable>: SharedPropertySource {
  private let read: @Sendable () -> Value
  private let subscribe: @Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable
  private let subscribeToChanges: @Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable

  /// Creates a read-only property from its three abilities.
  ///
  /// - Parameters:
  ///   - value: Returns the current value; called from any thread.
  ///   - observeNonisolated: Registers a handler that hears the current value at once, then
  ///     every change, on the notifying thread; returns the disposable that ends it.
  ///   - observeChangesNonisolated: Registers a handler that hears only later changes.
  public init(
    value: @escaping @Sendable () -> Value,
    observeNonisolated: @escaping @Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable,
    observeChangesNonisolated: @escaping @Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) {
    read = value
    subscribe = observeNonisolated
    subscribeToChanges = observeChangesNonisolated
  }

  /// Creates a read-only view of `source`.
  public init<Source: SharedPropertySource>(_ source: Source) where Source.Value == Value {
    self.init(
      value: { source.value },
      observeNonisolated: { source.observeNonisolated($0) },
      observeChangesNonisolated: { source.observeChangesNonisolated($0) }
    )
  }

  /// The current value of the upstream property.
  public var value: Value { read() }

  /// Registers `handler` with the upstream property: the current value at once, then every
  /// change, on the notifying thread; see ``SharedProperty/observeNonisolated(_:)``.
  @_disfavoredOverload
  public func observeNonisolated(_ handler: @escaping @Sendable (Value) -> Void) -> any Disposable {
    subscribe(handler)
  }

  /// Registers `handler` as ``observeNonisolated(_:)`` does;
  /// in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  public func observeNonisolated(
    _ handler: @escaping @Sendable (Value) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(subscribe(handler), fileID, line)
  }

  /// Registers `handler` for every change from now on, without the current value.
  @_disfavoredOverload
  public func observeChangesNonisolated(_ handler: @escaping @Sendable (Value) -> Void) -> any Disposable {
    subscribeToChanges(handler)
  }

  /// Registers `handler` as ``observeChangesNonisolated(_:)`` does;
  /// in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  public func observeChangesNonisolated(
    _ handler: @escaping @Sendable (Value) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(subscribeToChanges(handler), fileID, line)
  }
}

extension SharedPropertySource {
  /// A view of this property that others can read and observe but not set.
  public var readOnly: SharedReadOnlyProperty<Value> { SharedReadOnlyProperty(self) }

  /// The values set from now on, without the current value.
  public var changes: SharedReadOnlyEvent<Value> {
    SharedReadOnlyEvent { handler in observeChangesNonisolated(handler) }
  }
}
