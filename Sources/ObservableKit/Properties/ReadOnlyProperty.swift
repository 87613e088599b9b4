/// A property that can be read and observed but not set: a derived property such as
/// `property.map { … }`, or the read-only view of a ``Property`` that a model exposes.
///
/// ```swift
/// final class Player {
///   private let _volume = Property(0.5)
///   var volume: ReadOnlyProperty<Double> { _volume.readOnly }
/// }
/// ```
///
/// It holds no state of its own: ``value`` reads through to the upstream property (a
/// derived value is computed again on each read), and observing it observes the upstream
/// property. Disposing the subscription releases the whole chain.
public struct ReadOnlyProperty<Value>: PropertySource {
  private let read: () -> Value
  private let subscribe: (@escaping (Value) -> Void) -> any Disposable
  private let subscribeToChanges: (@escaping (Value) -> Void) -> any Disposable

  /// Creates a read-only property from its three abilities.
  ///
  /// - Parameters:
  ///   - value: Returns the current value.
  ///   - observe: Registers a handler that hears the current value at once, then every
  ///     change; returns the disposable that ends it.
  ///   - observeChanges: Registers a handler that hears only later changes.
  public init(
    value: @escaping () -> Value,
    observe: @escaping (@escaping (Value) -> Void) -> any Disposable,
    observeChanges: @escaping (@escaping (Value) -> Void) -> any Disposable
  ) {
    read = value
    subscribe = observe
    subscribeToChanges = observeChanges
  }

  /// Creates a read-only view of `source`.
  public init<Source: PropertySource>(_ source: Source) where Source.Value == Value {
    self.init(
      value: { source.value },
      observe: { source.observe($0) },
      observeChanges: { source.observeChanges($0) }
    )
  }

  /// The current value of the upstream property.
  public var value: Value { read() }

  /// Calls `handler` with the current value at once, then with every change.
  @_disfavoredOverload
  public func observe(_ handler: @escaping (Value) -> Void) -> any Disposable {
    subscribe(handler)
  }

  /// Calls `handler` as ``observe(_:)`` does;
  /// in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  public func observe(
    _ handler: @escaping (Value) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(subscribe(handler), fileID, line)
  }

  /// Calls `handler` with every change from now on, without the current value.
  @_disfavoredOverload
  public func observeChanges(_ handler: @escaping (Value) -> Void) -> any Disposable {
    subscribeToChanges(handler)
  }

  /// Calls `handler` as ``observeChanges(_:)`` does;
  /// in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  public func observeChanges(
    _ handler: @escaping (Value) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(subscribeToChanges(handler), fileID, line)
  }
}
