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

extension LatestValues where Value: Sendable {
  /// ``LatestValues/observe(_:skippingReplay:_:)`` for the shared family, whose handlers are
  /// `@Sendable`.
  static func observeShared(
    _ subscriptions: [@Sendable (@escaping @Sendable (Value) -> Void) -> any Disposable],
    skippingReplay: Bool = false,
    _ handler: @escaping @Sendable ([Value]) -> Void
  ) -> any Disposable {
    if subscriptions.isEmpty {
      if !skippingReplay { handler([]) }
      return CompositeDisposable([])
    }
    let latest = LatestValues(count: subscriptions.count, skippingReplay: skippingReplay)
    let gate = NewestValueGate<[Value]>()
    return CompositeDisposable(subscriptions.enumerated().map { index, subscribe in
      subscribe { value in
        let (values, version, replaced) = latest.update(index, to: value)
        withExtendedLifetime(replaced) {
          if let values { gate.offer(values, version: version, to: handler) }
        }
      }
    })
  }
}

/// The state behind the shared family's two-way `combineLatest`: the latest value of each
/// side and a version that orders the pairs (see ``NewestValueGate``). As for
/// ``LatestValues``, both sides are observed with their replay; `observeChanges` skips the
/// first complete pair, which is made of the replays.
struct LatestPair<First, Second> {
  var first: First?
  var second: Second?
  var skipsFirstPair: Bool
  var version: UInt64 = 0

  /// Stores one side; returns the pair to deliver, its version, and the replaced value, to
  /// be released outside the lock.
  mutating func update(first newValue: First) -> (pair: (First, Second)?, version: UInt64, replaced: First?) {
    let replaced = first
    first = newValue
    return (nextPair(), version, replaced)
  }

  mutating func update(second newValue: Second) -> (pair: (First, Second)?, version: UInt64, replaced: Second?) {
    let replaced = second
    second = newValue
    return (nextPair(), version, replaced)
  }

  private mutating func nextPair() -> (First, Second)? {
    version += 1
    guard let first, let second else { return nil }
    if skipsFirstPair {
      skipsFirstPair = false
      return nil
    }
    return (first, second)
  }
}

extension LatestPair: Sendable where First: Sendable, Second: Sendable {}

/// The subscription behind the shared family's two-way `combineLatest`.
enum SharedCombination {
  static func observe<A: SharedPropertySource, B: SharedPropertySource>(
    _ a: A,
    _ b: B,
    skippingReplay: Bool,
    _ handler: @escaping @Sendable ((A.Value, B.Value)) -> Void
  ) -> any Disposable {
    let latest = Locked(LatestPair<A.Value, B.Value>(skipsFirstPair: skippingReplay))
    let gate = NewestValueGate<(A.Value, B.Value)>()
    let deliver: @Sendable ((A.Value, B.Value)?, UInt64) -> Void = { pair, version in
      if let pair { gate.offer(pair, version: version, to: handler) }
    }
    let onFirst: @Sendable (A.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(first: value) }
      withExtendedLifetime(replaced) { deliver(pair, version) }
    }
    let onSecond: @Sendable (B.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(second: value) }
      withExtendedLifetime(replaced) { deliver(pair, version) }
    }
    return CompositeDisposable([a.observeNonisolated(onFirst), b.observeNonisolated(onSecond)])
  }
}
