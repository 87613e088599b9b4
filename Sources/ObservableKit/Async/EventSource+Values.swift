extension EventSource where Value: Sendable {
  /// The values of this source as an async sequence.
  ///
  /// ```swift
  /// for await score in game.scoreChanged.values { print(score) }
  /// ```
  ///
  /// The subscription starts when the loop starts (when it makes the iterator, not when
  /// `values` is read) and ends when the loop ends, the task is cancelled, or the iterator
  /// is released: no task and no continuation is left behind. Values notified before the
  /// iterator is made are not in the sequence; to hear everything from a given point, call
  /// `makeAsyncIterator()` there. A property's sequence starts with its value at that
  /// moment. Values that arrive faster
  /// than the loop consumes them are buffered without limit; use
  /// ``values(bufferingPolicy:)`` to bound the buffer.
  public var values: EventValues<Value> {
    values(bufferingPolicy: .unbounded)
  }

  /// The values of this source as an async sequence, buffered as `bufferingPolicy` says.
  ///
  /// - Parameter bufferingPolicy: What to keep when values arrive faster than they are
  ///   consumed: all of them, the oldest n, or the newest n (`.bufferingNewest(1)` keeps
  ///   only the latest value, a good fit for properties).
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> EventValues<Value> {
    EventValues(self, bufferingPolicy: bufferingPolicy)
  }
}
