// The property operators of the shared family, at parity with PropertySource+Operators.swift:
// map, removeDuplicates and combineLatest keep "property-ness" (a current value, its replay,
// and observeChanges) by returning a SharedReadOnlyProperty.

extension SharedPropertySource {
  /// A read-only property whose value is this property's value transformed by `transform`;
  /// see ``PropertySource/map(_:)``.
  ///
  /// It has a current value (computed again on each read of
  /// ``SharedReadOnlyProperty/value``, on the reading thread), replays it to each new
  /// observer, and delivers the transformed value of every set. `transform` runs on the
  /// notifying thread for observers, with no lock held.
  public func map<Result: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Result
  ) -> SharedReadOnlyProperty<Result> {
    SharedReadOnlyProperty(
      value: { transform(value) },
      observeNonisolated: { handler in observeNonisolated { handler(transform($0)) } },
      observeChangesNonisolated: { handler in observeChangesNonisolated { handler(transform($0)) } }
    )
  }

  /// A read-only property that skips a value equivalent to the last one delivered; see
  /// ``PropertySource/removeDuplicates(by:)``.
  public func removeDuplicates(
    by areEquivalent: @escaping @Sendable (Value, Value) -> Bool
  ) -> SharedReadOnlyProperty<Value> {
    SharedReadOnlyProperty(
      value: { value },
      observeNonisolated: { handler in
        let last = LastValue<Value>()
        return observeNonisolated { if last.replace(with: $0, unlessEquivalent: areEquivalent) { handler($0) } }
      },
      observeChangesNonisolated: { handler in
        let last = LastValue<Value>(value)
        return observeChangesNonisolated {
          if last.replace(with: $0, unlessEquivalent: areEquivalent) { handler($0) }
        }
      }
    )
  }

  /// A read-only property whose value pairs this property's value with `other`'s; see
  /// ``PropertySource/combineLatest(_:)``.
  ///
  /// Observers hear the pair of current values at once, then a new pair whenever either
  /// property is set, from any thread. Calls to one handler never overlap and never go back
  /// in time.
  public func combineLatest<Other: SharedPropertySource>(
    _ other: Other
  ) -> SharedReadOnlyProperty<(Value, Other.Value)> {
    SharedReadOnlyProperty(
      value: { (value, other.value) },
      observeNonisolated: { handler in SharedCombination.observe(self, other, skippingReplay: false, handler) },
      observeChangesNonisolated: { handler in SharedCombination.observe(self, other, skippingReplay: true, handler) }
    )
  }

  /// A read-only property whose value combines this property's value with two others'.
  public func combineLatest<Second: SharedPropertySource, Third: SharedPropertySource>(
    _ second: Second,
    _ third: Third
  ) -> SharedReadOnlyProperty<(Value, Second.Value, Third.Value)> {
    combineLatest(second).combineLatest(third).map { pair, third in (pair.0, pair.1, third) }
  }
}

extension SharedPropertySource where Value: Equatable {
  /// A read-only property that skips a value equal to the last one delivered.
  public func removeDuplicates() -> SharedReadOnlyProperty<Value> {
    removeDuplicates(by: ==)
  }
}

extension Collection where Element: SharedPropertySource {
  /// A read-only property whose value is the array of the current values of every property
  /// in the collection, in order; as for the confined family.
  ///
  /// Observers hear the array of current values at once, then a new array whenever any of
  /// the properties is set, from any thread; calls to one handler never overlap and never go
  /// back in time. An empty collection gives a property whose value is `[]`, replayed once.
  public func combineLatest() -> SharedReadOnlyProperty<[Element.Value]> {
    let sources = Array(self)
    return SharedReadOnlyProperty(
      value: { sources.map(\.value) },
      observeNonisolated: { handler in
        LatestValues.observeShared(sources.map { source in { source.observeNonisolated($0) } }, handler)
      },
      observeChangesNonisolated: { handler in
        LatestValues.observeShared(
          sources.map { source in { source.observeNonisolated($0) } },
          skippingReplay: true,
          handler
        )
      }
    )
  }
}
