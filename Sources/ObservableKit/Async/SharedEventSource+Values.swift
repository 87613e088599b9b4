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
}
