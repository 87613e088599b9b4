/// An event that can be observed but not notified: a derived event such as
/// `event.map { … }`, or the read-only face of an ``ObservableEvent`` that a model exposes.
///
/// ```swift
/// final class Game {
///   private let scored = ObservableEvent<Int>()
///   var scoreEvents: ReadOnlyEvent<Int> { scored.readOnly }
/// }
/// ```
///
/// A `ReadOnlyEvent` holds no observers of its own. Observing it observes its upstream
/// source through the chain of operators, and disposing the subscription disposes the
/// upstream subscription, releasing the whole chain.
public struct ReadOnlyEvent<Value>: EventSource {
  private let subscribe: (@escaping (Value) -> Void) -> any Disposable

  /// Creates an event whose observers are registered by `subscribe`.
  ///
  /// `subscribe` receives each new handler and returns the disposable that ends it. Use it
  /// to adapt another observer mechanism.
  public init(_ subscribe: @escaping (@escaping (Value) -> Void) -> any Disposable) {
    self.subscribe = subscribe
  }

  /// Creates a read-only view of `source`.
  public init<Source: EventSource>(_ source: Source) where Source.Value == Value {
    subscribe = { handler in source.observe(handler) }
  }

  /// Registers `handler` with the upstream source.
  @_disfavoredOverload
  public func observe(_ handler: @escaping (Value) -> Void) -> any Disposable {
    subscribe(handler)
  }

  /// Registers `handler` with the upstream source, as ``observe(_:)`` does;
  /// in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the call site.
  public func observe(
    _ handler: @escaping (Value) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(subscribe(handler), fileID, line)
  }
}

extension EventSource {
  /// A view of this source that others can observe but not notify.
  public var readOnly: ReadOnlyEvent<Value> { ReadOnlyEvent(self) }
}
