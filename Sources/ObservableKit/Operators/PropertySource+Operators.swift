extension PropertySource {
  /// A read-only property whose value is this property's value transformed by `transform`.
  ///
  /// It has a current value (computed again on each read of ``ReadOnlyProperty/value``),
  /// replays it to each new observer, and delivers the transformed value of every set.
  public func map<Result>(_ transform: @escaping (Value) -> Result) -> ReadOnlyProperty<Result> {
    ReadOnlyProperty(
      value: { transform(value) },
      observe: { handler in observe { handler(transform($0)) } },
      observeChanges: { handler in observeChanges { handler(transform($0)) } }
    )
  }

  /// A read-only property that skips a value equivalent to the last one delivered.
  ///
  /// The replay always comes through; ``PropertySource/observeChanges(_:)`` skips a change
  /// equivalent to the value current when it subscribed.
  public func removeDuplicates(
    by areEquivalent: @escaping (Value, Value) -> Bool
  ) -> ReadOnlyProperty<Value> {
    ReadOnlyProperty(
      value: { value },
      observe: { handler in
        let last = LastValue<Value>()
        return observe { if last.replace(with: $0, unlessEquivalent: areEquivalent) { handler($0) } }
      },
      observeChanges: { handler in
        let last = LastValue<Value>(value)
        return observeChanges { if last.replace(with: $0, unlessEquivalent: areEquivalent) { handler($0) } }
      }
    )
  }

  /// A read-only property whose value pairs this property's value with `other`'s.
  ///
  /// Observers hear the pair of current values at once, then a new pair whenever either
  /// property is set. Calls to one handler never overlap and never go back in time, even
  /// when the two properties are set on different threads.
  public func combineLatest<Other: PropertySource>(
    _ other: Other
  ) -> ReadOnlyProperty<(Value, Other.Value)> {
    ReadOnlyProperty(
      value: { (value, other.value) },
      observe: { handler in Combination.observe(self, other, replaying: true, handler) },
      observeChanges: { handler in Combination.observe(self, other, replaying: false, handler) }
    )
  }

  /// A read-only property whose value combines this property's value with two others'.
  public func combineLatest<Second: PropertySource, Third: PropertySource>(
    _ second: Second,
    _ third: Third
  ) -> ReadOnlyProperty<(Value, Second.Value, Third.Value)> {
    combineLatest(second).combineLatest(third).map { pair, third in (pair.0, pair.1, third) }
  }
}

extension PropertySource where Value: Equatable {
  /// A read-only property that skips a value equal to the last one delivered.
  public func removeDuplicates() -> ReadOnlyProperty<Value> {
    removeDuplicates(by: ==)
  }
}

/// The subscription behind `combineLatest`: the latest value of each side, and a newest-value gate
/// that serializes and orders the pairs it delivers.
private enum Combination {
  private struct Latest<First, Second> {
    var first: First?
    var second: Second?
    var version: UInt64 = 0

    /// Stores one side and returns the pair to deliver, if both sides are known, with the
    /// replaced value so that it is released outside the lock.
    mutating func update(first newValue: First) -> (pair: (First, Second)?, version: UInt64, replaced: First?) {
      let replaced = first
      first = newValue
      return (pair(), bump(), replaced)
    }

    mutating func update(second newValue: Second) -> (pair: (First, Second)?, version: UInt64, replaced: Second?) {
      let replaced = second
      second = newValue
      return (pair(), bump(), replaced)
    }

    private func pair() -> (First, Second)? {
      guard let first, let second else { return nil }
      return (first, second)
    }

    private mutating func bump() -> UInt64 {
      version += 1
      return version
    }
  }

  static func observe<A: PropertySource, B: PropertySource>(
    _ a: A,
    _ b: B,
    replaying: Bool,
    _ handler: @escaping ((A.Value, B.Value)) -> Void
  ) -> any Disposable {
    let latest = Locked(Latest<A.Value, B.Value>())
    let gate = NewestValueGate<(A.Value, B.Value)>()
    let deliver: ((A.Value, B.Value)?, UInt64) -> Void = { pair, version in
      if let pair { gate.offer(pair, version: version, to: handler) }
    }
    let onFirst: (A.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(first: value) }
      withExtendedLifetime(replaced) { deliver(pair, version) }
    }
    let onSecond: (B.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(second: value) }
      withExtendedLifetime(replaced) { deliver(pair, version) }
    }
    if replaying {
      return CompositeDisposable([a.observe(onFirst), b.observe(onSecond)])
    }
    // Read outside the lock: a derived property's value runs user code.
    let (first, second) = (a.value, b.value)
    latest.withLock { latest in
      latest.first = first
      latest.second = second
    }
    return CompositeDisposable([a.observeChanges(onFirst), b.observeChanges(onSecond)])
  }
}
