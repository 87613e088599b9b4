extension SharedEventSource {
  /// The values of this source as an async sequence; see ``EventSource/values``.
  public var values: EventValues<Value> {
    values(bufferingPolicy: .unbounded)
  }

  /// The values of this source as an async sequence, buffered as `bufferingPolicy` says; see
  /// ``EventSource/values(bufferingPolicy:)``.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> EventValues<Value> {
    EventValues(self, bufferingPolicy: bufferingPolicy)
  }

  /// The values of this source as an async sequence, buffered as `bufferingPolicy` says,
  /// calling `onDrop` with each value the buffer does not keep; see
  /// ``EventSource/values(bufferingPolicy:onDrop:)``. `onDrop` runs on the notifying thread.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy,
    onDrop: @escaping @Sendable (Value) -> Void
  ) -> EventValues<Value> {
    EventValues(self, bufferingPolicy: bufferingPolicy, onDrop: onDrop)
  }
}
