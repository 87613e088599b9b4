extension SharedEventSource {
  /// Delivers each value transformed by `transform`, which runs on the notifying thread.
  public func map<Result: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Result
  ) -> SharedReadOnlyEvent<Result> {
    SharedReadOnlyEvent { handler in observeNonisolated { handler(transform($0)) } }
  }

  /// Delivers only the values for which `isIncluded` returns true.
  public func filter(_ isIncluded: @escaping @Sendable (Value) -> Bool) -> SharedReadOnlyEvent<Value> {
    SharedReadOnlyEvent { handler in observeNonisolated { if isIncluded($0) { handler($0) } } }
  }

  /// Delivers the non-nil results of `transform`.
  public func compactMap<Result: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Result?
  ) -> SharedReadOnlyEvent<Result> {
    SharedReadOnlyEvent { handler in
      observeNonisolated { if let result = transform($0) { handler(result) } }
    }
  }

  /// Skips a value that `areEquivalent` finds equivalent to the last value delivered; each
  /// subscription keeps its own last value.
  public func removeDuplicates(
    by areEquivalent: @escaping @Sendable (Value, Value) -> Bool
  ) -> SharedReadOnlyEvent<Value> {
    SharedReadOnlyEvent { handler in
      let last = LastValue<Value>()
      return observeNonisolated { value in
        if last.replace(with: value, unlessEquivalent: areEquivalent) { handler(value) }
      }
    }
  }
}

extension SharedEventSource {
  /// Delivers the first `count` values of each subscription, then ends it; see
  /// ``EventSource/take(_:)``.
  public func take(_ count: Int) -> SharedReadOnlyEvent<Value> {
    precondition(count >= 0, "take(_:) needs a count of zero or more")
    return SharedReadOnlyEvent { handler in
      let take = TakeSubscription(count)
      if count > 0 { take.slot.fill(observeNonisolated { if take.admit() { handler($0) } }) }
      return take.slot
    }
  }

  /// Delivers the next value only, then ends the subscription: `take(1)`.
  public func once() -> SharedReadOnlyEvent<Value> {
    take(1)
  }

  /// Skips the first `count` values of each subscription; see ``EventSource/skip(_:)``.
  public func skip(_ count: Int) -> SharedReadOnlyEvent<Value> {
    precondition(count >= 0, "skip(_:) needs a count of zero or more")
    return SharedReadOnlyEvent { handler in
      let seen = Locked(0)
      return observeNonisolated { value in
        let index = seen.withLock { seen in
          defer { seen += 1 }
          return seen
        }
        if index >= count { handler(value) }
      }
    }
  }

  /// Delivers this source's values until `other` delivers its first value, then ends the
  /// subscription; see ``EventSource/take(until:)``.
  ///
  /// `other`'s first value, from any thread, ends the subscription to both sources before
  /// its handler returns; a value of this source whose call had already begun on another
  /// thread may still finish, none begins after.
  public func take<Other: SharedEventSource>(until other: Other) -> SharedReadOnlyEvent<Value> {
    SharedReadOnlyEvent { handler in
      let until = TakeUntilSubscription()
      until.trigger.fill(other.observeNonisolated { _ in until.dispose() })
      if !until.isDisposed { until.upstream.fill(observeNonisolated { if until.admits { handler($0) } }) }
      return until
    }
  }
}

extension SharedEventSource where Value: Equatable {
  /// Skips a value equal to the last value delivered.
  public func removeDuplicates() -> SharedReadOnlyEvent<Value> {
    removeDuplicates(by: ==)
  }
}
