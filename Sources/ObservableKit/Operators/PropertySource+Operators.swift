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
      observe: { handler in Combination.observe(self, other, skippingReplay: false, handler) },
      observeChanges: { handler in Combination.observe(self, other, skippingReplay: true, handler) }
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
