/// A ``SharedEventSource`` that can be observed but not notified: a derived event such as
/// `shared.map { … }`, or the read-only face of a ``SharedEvent``.
///
/// It holds no observers of its own: observing it observes its upstream source, and
/// disposing the subscription disposes the upstream one.
public struct SharedReadOnlyEvent<Value: Sendable>: SharedEventSource {
  private let subscribe: @Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable

  /// Creates an event whose observers are registered by `subscribe`.
  public init(_ subscribe: @escaping @Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    self.subscribe = subscribe
  }

  /// Creates a read-only view of `source`.
  public init<Source: SharedEventSource>(_ source: Source) where Source.Value == Value {
    subscribe = { source.observeNonisolated($0) }
  }

  /// Registers `handler` with the upstream source.
  @_disfavoredOverload
  public func observeNonisolated(_ handler: @escaping @Sendable (Value) -> Void) -> any Disposable {
    subscribe(handler)
  }

  /// Registers `handler` with the upstream source, as ``observeNonisolated(_:)`` does;
  /// in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  public func observeNonisolated(
    _ handler: @escaping @Sendable (Value) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(subscribe(handler), fileID, line)
  }
}
