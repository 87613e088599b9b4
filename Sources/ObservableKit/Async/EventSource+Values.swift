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
  ///   only the latest value, a good fit for properties). A bounded buffer drops values
  ///   by that policy without telling anyone; use ``values(bufferingPolicy:onDrop:)`` to
  ///   hear each dropped value.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy
  ) -> EventValues<Value> {
    EventValues(self, bufferingPolicy: bufferingPolicy)
  }

  /// The values of this source as an async sequence, buffered as `bufferingPolicy` says,
  /// calling `onDrop` with each value the buffer does not keep.
  ///
  /// ```swift
  /// let frames = camera.frames.values(bufferingPolicy: .bufferingNewest(2)) { frame in
  ///   logger.warning("frame \(frame.number) dropped: the renderer fell behind")
  /// }
  /// for await frame in frames { render(frame) }
  /// ```
  ///
  /// A bounded buffer drops values when the loop falls behind; `onDrop` makes each drop
  /// visible. With `.bufferingNewest(n)` it receives the oldest buffered value, which the new
  /// one evicts; with `.bufferingOldest(n)` it receives the new value, which did not fit.
  /// With `.unbounded` it is never called. It runs synchronously inside the notification,
  /// on the notifying thread, once per dropped value, with no lock held, so it must be
  /// quick and `@Sendable`. A value that arrives after the loop has ended is not a drop:
  /// the subscription is ending, and nothing is reported.
  public func values(
    bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy,
    onDrop: @escaping @Sendable (Value) -> Void
  ) -> EventValues<Value> {
    EventValues(self, bufferingPolicy: bufferingPolicy, onDrop: onDrop)
  }
}
