// The state behind `combineLatest`, for both families: the latest value of each source, a
// version that orders the combinations, and the newest-value gate that serializes one
// subscriber's calls.
//
// Each algorithm is written once as state (`LatestValues`, `LatestPair`); the few lines that
// wire the state to the sources are written twice, once per family, on purpose: the shared
// family's closures must be `@Sendable`, and the compiler checks that they are, while the
// confined family's handler is not `Sendable` and may not be made so. Swift cannot abstract
// over `@Sendable`, so one body serving both would need an unchecked conversion that drops
// the check the shared family relies on.

/// The state behind `combineLatest` over a collection: the latest value of each property and
/// a version that orders the arrays delivered (see ``NewestValueGate``).
///
/// Each property is observed with its replay, so no set can fall between reading a value and
/// subscribing. The first complete array is made of the replays (and of any set that raced
/// with them): `observeChanges` skips exactly that one.
final class LatestValues<Value> {
  fileprivate struct State {
    var values: [Value?]
    var missing: Int
    var skipsFirstArray: Bool
    var version: UInt64 = 0
  }

  private let state: Locked<State>

  init(count: Int, skippingReplay: Bool) {
    state = Locked(State(values: Array(repeating: nil, count: count), missing: count, skipsFirstArray: skippingReplay))
  }

  /// Stores the value of the property at `index`; returns the array to deliver once every
  /// property is known, its version, and the replaced value, to be released outside the lock.
  func update(_ index: Int, to value: Value) -> (values: [Value]?, version: UInt64, replaced: Value?) {
    state.withLock { state in
      let replaced = state.values[index]
      if replaced == nil { state.missing -= 1 }
      state.values[index] = value
      state.version += 1
      guard state.missing == 0 else { return (nil, state.version, replaced) }
      if state.skipsFirstArray {
        state.skipsFirstArray = false
        return (nil, state.version, replaced)
      }
      return (state.values.map { $0! }, state.version, replaced)
    }
  }

  /// Observes each property through `subscriptions` (which replay), in order, and delivers
  /// the arrays to `handler` through one newest-value gate; `skippingReplay` leaves out the first.
  static func observe(
    _ subscriptions: [(@escaping (Value) -> Void) -> any Disposable],
    skippingReplay: Bool = false,
    _ handler: @escaping ([Value]) -> Void
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

// Checked: the one stored property is a `Locked` box, whose mutex guards the state, and the
// state holds values, no closures.
extension LatestValues: Sendable where Value: Sendable {}
extension LatestValues.State: Sendable where Value: Sendable {}

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

/// The state behind the two-way `combineLatest` of both families: the latest value of each
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

/// The confined family's two-way `combineLatest`. Both sides are observed with their replay,
/// also for `observeChanges`, which skips the first complete pair (made of the replays): no
/// set can fall between reading a value and subscribing.
enum Combination {
  static func observe<A: PropertySource, B: PropertySource>(
    _ a: A,
    _ b: B,
    skippingReplay: Bool,
    _ handler: @escaping ((A.Value, B.Value)) -> Void
  ) -> any Disposable {
    let latest = Locked(LatestPair<A.Value, B.Value>(skipsFirstPair: skippingReplay))
    let gate = NewestValueGate<(A.Value, B.Value)>()
    let pass: ((A.Value, B.Value)?, UInt64) -> Void = { pair, version in
      if let pair { gate.offer(pair, version: version, to: handler) }
    }
    let onFirst: (A.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(first: value) }
      withExtendedLifetime(replaced) { pass(pair, version) }
    }
    let onSecond: (B.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(second: value) }
      withExtendedLifetime(replaced) { pass(pair, version) }
    }
    return CompositeDisposable([a.observe(onFirst), b.observe(onSecond)])
  }
}

/// The shared family's two-way `combineLatest`: ``Combination`` with `@Sendable` closures.
enum SharedCombination {
  static func observe<A: SharedPropertySource, B: SharedPropertySource>(
    _ a: A,
    _ b: B,
    skippingReplay: Bool,
    _ handler: @escaping @Sendable ((A.Value, B.Value)) -> Void
  ) -> any Disposable {
    let latest = Locked(LatestPair<A.Value, B.Value>(skipsFirstPair: skippingReplay))
    let gate = NewestValueGate<(A.Value, B.Value)>()
    let pass: @Sendable ((A.Value, B.Value)?, UInt64) -> Void = { pair, version in
      if let pair { gate.offer(pair, version: version, to: handler) }
    }
    let onFirst: @Sendable (A.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(first: value) }
      withExtendedLifetime(replaced) { pass(pair, version) }
    }
    let onSecond: @Sendable (B.Value) -> Void = { value in
      let (pair, version, replaced) = latest.withLock { $0.update(second: value) }
      withExtendedLifetime(replaced) { pass(pair, version) }
    }
    return CompositeDisposable([a.observeNonisolated(onFirst), b.observeNonisolated(onSecond)])
  }
}
