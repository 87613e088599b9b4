extension EventSource {
  /// Delivers each value transformed by `transform`.
  public func map<Result>(_ transform: @escaping (Value) -> Result) -> ReadOnlyEvent<Result> {
    ReadOnlyEvent { handler in observe { handler(transform($0)) } }
  }

  /// Delivers only the values for which `isIncluded` returns true.
  public func filter(_ isIncluded: @escaping (Value) -> Bool) -> ReadOnlyEvent<Value> {
    ReadOnlyEvent { handler in observe { if isIncluded($0) { handler($0) } } }
  }

  /// Delivers the non-nil results of `transform`.
  public func compactMap<Result>(_ transform: @escaping (Value) -> Result?) -> ReadOnlyEvent<Result> {
    ReadOnlyEvent { handler in observe { if let result = transform($0) { handler(result) } } }
  }

  /// Skips a value that `areEquivalent` finds equivalent to the last value delivered.
  ///
  /// Each subscription keeps its own last value. `areEquivalent` runs with no lock held.
  public func removeDuplicates(
    by areEquivalent: @escaping (Value, Value) -> Bool
  ) -> ReadOnlyEvent<Value> {
    ReadOnlyEvent { handler in
      let last = LastValue<Value>()
      return observe { value in
        if last.replace(with: value, unlessEquivalent: areEquivalent) { handler(value) }
      }
    }
  }

  /// Skips the first `count` values of each subscription.
  public func skip(_ count: Int) -> ReadOnlyEvent<Value> {
    precondition(count >= 0, "skip(_:) needs a count of zero or more")
    return ReadOnlyEvent { handler in
      let seen = Locked(0)
      return observe { value in
        let index = seen.withLock { seen in
          defer { seen += 1 }
          return seen
        }
        if index >= count { handler(value) }
      }
    }
  }

  /// Delivers the first `count` values of each subscription, then ends it.
  ///
  /// The subscription ends before the last value is delivered, so a handler that causes
  /// another notification does not hear it; the upstream handler is released then.
  public func take(_ count: Int) -> ReadOnlyEvent<Value> {
    precondition(count >= 0, "take(_:) needs a count of zero or more")
    return ReadOnlyEvent { handler in
      let take = TakeSubscription(count)
      if count > 0 { take.slot.fill(observe { if take.admit() { handler($0) } }) }
      return take.slot
    }
  }

  /// Delivers the next value only, then ends the subscription: `take(1)`.
  public func once() -> ReadOnlyEvent<Value> {
    take(1)
  }

  /// Delivers this source's values until `other` delivers its first value, then ends the
  /// subscription.
  ///
  /// ```swift
  /// let untilClosed = ticks.take(until: screenClosed)
  /// ```
  ///
  /// `other` is observed first, with the subscription: its first value (a property's replay
  /// counts, so pass a property's ``PropertySource/changes`` to wait for its next set) ends
  /// the subscription to both sources before its handler returns, releasing the chain; no
  /// value of this source is delivered after that. Disposing the subscription ends both.
  public func take<Other: EventSource>(until other: Other) -> ReadOnlyEvent<Value> {
    ReadOnlyEvent { handler in
      let until = TakeUntilSubscription()
      until.trigger.fill(other.observe { _ in until.dispose() })
      if !until.isDisposed { until.upstream.fill(observe { if until.admits { handler($0) } }) }
      return until
    }
  }
}

extension EventSource where Value: Equatable {
  /// Skips a value equal to the last value delivered.
  public func removeDuplicates() -> ReadOnlyEvent<Value> {
    removeDuplicates(by: ==)
  }
}

/// The last value one subscription delivered, for `removeDuplicates`.
///
/// The comparison is user code, so it runs outside the lock; a generation counter detects a
/// concurrent replacement, and the comparison is then made again against the newer value.
final class LastValue<Value> {
  fileprivate struct State {
    var value: Value?
    var generation: UInt64 = 0
  }

  private let state = Locked(State())

  init(_ initial: Value? = nil) {
    state.withLock { $0.value = initial }
  }

  /// Stores `value` and returns true, unless it is equivalent to the stored value.
  func replace(with value: Value, unlessEquivalent areEquivalent: (Value, Value) -> Bool) -> Bool {
    while true {
      let (last, generation) = state.withLock { ($0.value, $0.generation) }
      if let last, areEquivalent(last, value) { return false }
      let (stored, replaced) = state.withLock { state -> (Bool, Value?) in
        guard state.generation == generation else { return (false, nil) }
        // The replaced value leaves the lock, so its deinit runs outside.
        defer { state.value = value; state.generation += 1 }
        return (true, state.value)
      }
      withExtendedLifetime(replaced) {}
      if stored { return true }
    }
  }
}

// Checked: the one stored property is a `Locked` box, whose mutex guards the state, and the
// state holds values, no closures.
extension LastValue: Sendable where Value: Sendable {}
extension LastValue.State: Sendable where Value: Sendable {}
