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
  /// A view of this source that others can observe but not notify.
  public var readOnly: SharedReadOnlyEvent<Value> { SharedReadOnlyEvent(self) }
}
