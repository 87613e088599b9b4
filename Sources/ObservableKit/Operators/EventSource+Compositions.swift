// The compositions of the confined family: running results, sampling, prefixes, pairs, and
// merging or combining many sources. Each returns a view that holds no observers; the state
// it keeps (an accumulator, the last value) belongs to one subscription.

extension EventSource {
  /// Delivers the values of this source and of `others`, as each arrives.
  ///
  /// Disposing the subscription ends the subscriptions to every source.
  public func merge<Other: EventSource>(with others: Other...) -> ReadOnlyEvent<Value> where Other.Value == Value {
    let sources = [ReadOnlyEvent(self)] + others.map { ReadOnlyEvent($0) }
    return ReadOnlyEvent { handler in
      CompositeDisposable(sources.map { $0.observe(handler) })
    }
  }

  /// Delivers a running result: `nextPartialResult` folds each value into the result
  /// delivered before it, starting from `initialResult`.
  ///
  /// ```swift
  /// let total = purchases.scan(0) { total, price in total + price }   // ReadOnlyEvent<Int>
  /// ```
  ///
  /// Returns a ``ReadOnlyEvent``, also on a property (whose replay is the first value
  /// folded in). Each subscription keeps its own result, starting from `initialResult`.
  ///
  /// `nextPartialResult` runs on the notifying thread with no lock held. A handler that
  /// notifies the same source hears the fold of that value after its call returns (the
  /// notification is queued; see <doc:Contracts>). If values arrive on several threads at
  /// once (an event shared in Swift 5 mode), each value is folded exactly once, on the
  /// newest result: `nextPartialResult` runs again when another thread stored a result
  /// between its read and its write.
  public func scan<Result>(
    _ initialResult: Result,
    _ nextPartialResult: @escaping (Result, Value) -> Result
  ) -> ReadOnlyEvent<Result> {
    ReadOnlyEvent { handler in
      let accumulator = Accumulator(initialResult)
      return observe { value in handler(accumulator.fold(value, with: nextPartialResult)) }
    }
  }

  /// Delivers, each time this source delivers, the value `other` holds at that moment.
  ///
  /// ```swift
  /// let submitted = submitTapped.withLatestFrom(query)   // ReadOnlyEvent<String>
  /// ```
  ///
  /// Returns a ``ReadOnlyEvent``. `other` is not observed: its ``PropertySource/value`` is
  /// read when this source delivers, so every value of this source is delivered. Disposing
  /// the subscription ends the subscription to this source. A handler that sets `other`
  /// changes what the next value reads; one that notifies this source hears that value
  /// after its call returns, as any queued notification.
  public func withLatestFrom<Other: PropertySource>(_ other: Other) -> ReadOnlyEvent<Other.Value> {
    ReadOnlyEvent { handler in observe { _ in handler(other.value) } }
  }

  /// Delivers `combine` of each value of this source with the value `other` holds at that
  /// moment; see `withLatestFrom(_:)` on a property.
  public func withLatestFrom<Other: PropertySource, Result>(
    _ other: Other,
    _ combine: @escaping (Value, Other.Value) -> Result
  ) -> ReadOnlyEvent<Result> {
    ReadOnlyEvent { handler in observe { handler(combine($0, other.value)) } }
  }

  /// Delivers, each time this source delivers, the latest value `other` has delivered.
  ///
  /// Returns a ``ReadOnlyEvent``. Each subscription observes `other` first, then this
  /// source. **A value of this source that comes before `other` has delivered anything is
  /// not delivered**: there is nothing to pair it with. Pass a property when there must
  /// always be a latest value. Disposing the subscription ends both subscriptions. A value
  /// `other` delivers from inside the handler is stored at once, and paired with this
  /// source's next value.
  public func withLatestFrom<Other: EventSource>(_ other: Other) -> ReadOnlyEvent<Other.Value> {
    withLatestFrom(other) { _, latest in latest }
  }

  /// Delivers `combine` of each value of this source with the latest value `other` has
  /// delivered; values that come before `other` has delivered anything are not delivered.
  public func withLatestFrom<Other: EventSource, Result>(
    _ other: Other,
    _ combine: @escaping (Value, Other.Value) -> Result
  ) -> ReadOnlyEvent<Result> {
    ReadOnlyEvent { handler in
      let latest = LatestValue<Other.Value>()
      let otherToken = other.observe { latest.store($0) }
      let token = observe { value in
        if let current = latest.current { handler(combine(value, current)) }
      }
      return CompositeDisposable([token, otherToken])
    }
  }

  /// Delivers `values` to each new subscription, then the values of this source: Combine's
  /// `prepend`, Rx's `startWith`.
  ///
  /// ```swift
  /// let scores = scored.prepend(0)   // a new observer hears 0 at once, then each score
  /// ```
  ///
  /// Returns a ``ReadOnlyEvent``. The prepended values are delivered synchronously, inside
  /// `observe`, before it returns. This source is observed only after the last of them,
  /// so a notification a handler makes while hearing a prepended value is not heard by this
  /// subscription (as for any subscription made during a notification); on a property, its
  /// replay comes after the prepended values.
  public func prepend(_ values: Value...) -> ReadOnlyEvent<Value> {
    prepend(values)
  }

  /// Delivers the elements of `values` to each new subscription, then the values of this
  /// source; see `prepend(_:)`.
  public func prepend<Prefix: Sequence>(_ values: Prefix) -> ReadOnlyEvent<Value> where Prefix.Element == Value {
    let prefix = Array(values)
    return ReadOnlyEvent { handler in
      for value in prefix { handler(value) }
      return observe(handler)
    }
  }

  /// Delivers each value together with the one before it, from the second value on.
  ///
  /// ```swift
  /// volume.pairwise().observe { old, new in print("\(old) → \(new)") }
  /// ```
  ///
  /// Returns a ``ReadOnlyEvent`` of `(previous, current)`. Each subscription keeps its own
  /// previous value, so its first value is not delivered alone; on a property, the replay
  /// is that first value, and each set then delivers `(old, new)`. A handler that notifies
  /// the same source hears the pair `(current, new)` after its call returns, as any queued
  /// notification; when values arrive on several threads at once, each value is the
  /// `previous` of exactly one pair.
  public func pairwise() -> ReadOnlyEvent<(Value, Value)> {
    ReadOnlyEvent { handler in
      let previous = LatestValue<Value>()
      return observe { value in
        if let last = previous.store(value) { handler((last, value)) }
      }
    }
  }
}

extension Collection where Element: EventSource {
  /// Delivers the values of every source in the collection, as each arrives: `merge` of
  /// many.
  ///
  /// ```swift
  /// let anyAlert = [network.failed, disk.failed, sync.failed].merge()
  /// ```
  ///
  /// Returns a ``ReadOnlyEvent``. Each subscription observes every source, in the order of
  /// the collection; disposing it ends them all. An empty collection gives an event that
  /// never delivers. To merge sources of different types, make them alike with
  /// ``EventSource/readOnly``. Each value keeps the re-entrancy rule of the source it comes
  /// from: a handler that notifies that source hears the value after its call returns; one
  /// that notifies another source of the collection hears it at once, inside the call.
  public func merge() -> ReadOnlyEvent<Element.Value> {
    let sources = Array(self)
    return ReadOnlyEvent { handler in
      CompositeDisposable(sources.map { $0.observe(handler) })
    }
  }
}

extension Collection where Element: PropertySource {
  /// A read-only property whose value is the array of the current values of every property
  /// in the collection, in order.
  ///
  /// ```swift
  /// let allValid = [nameValid, emailValid, termsAccepted].combineLatest()
  ///   .map { $0.allSatisfy { $0 } }                      // ReadOnlyProperty<Bool>
  /// ```
  ///
  /// Returns a ``ReadOnlyProperty`` of `[Value]`: observers hear the array of current values
  /// at once, then a new array whenever any of the properties is set. As for
  /// ``PropertySource/combineLatest(_:)``, calls to one handler never overlap and never go
  /// back in time, even when the properties are set on different threads: a set made from
  /// inside the handler is delivered after the call returns, never inside it. An empty
  /// collection gives a property whose value is `[]`, replayed once, that never changes. To
  /// combine properties of different types, make them alike with
  /// ``PropertySource/readOnly`` or ``PropertySource/map(_:)``.
  public func combineLatest() -> ReadOnlyProperty<[Element.Value]> {
    let sources = Array(self)
    return ReadOnlyProperty(
      value: { sources.map(\.value) },
      observe: { handler in
        LatestValues.observe(sources.map { source in { source.observe($0) } }, handler)
      },
      observeChanges: { handler in
        LatestValues.observe(sources.map { source in { source.observe($0) } }, skippingReplay: true, handler)
      }
    )
  }
}

/// The running result of one `scan` subscription.
///
/// The fold is user code, so it runs outside the lock; a generation counter detects a result
/// stored by another thread meanwhile, and the fold then runs again on that newer result.
final class Accumulator<Result> {
  fileprivate struct State {
    var result: Result
    var generation: UInt64 = 0
  }

  private let state: Locked<State>

  init(_ initial: Result) {
    state = Locked(State(result: initial))
  }

  /// Folds `value` into the result, stores it, and returns it.
  func fold<Value>(_ value: Value, with next: (Result, Value) -> Result) -> Result {
    while true {
      let (current, generation) = state.withLock { ($0.result, $0.generation) }
      let folded = next(current, value)
      let (stored, replaced) = state.withLock { state -> (Bool, Result?) in
        guard state.generation == generation else { return (false, nil) }
        // The replaced result leaves the lock, so its deinit runs outside.
        defer { state.result = folded; state.generation += 1 }
        return (true, state.result)
      }
      withExtendedLifetime(replaced) {}
      if stored { return folded }
    }
  }
}

// Checked: the one stored property is a `Locked` box, whose mutex guards the state, and the
// state holds values, no closures.
extension Accumulator: Sendable where Result: Sendable {}
extension Accumulator.State: Sendable where Result: Sendable {}

/// The latest value one subscription heard, for `withLatestFrom` and `pairwise`.
final class LatestValue<Value> {
  private let state = Locked<Value?>(nil)

  /// Stores `value` and returns the value it replaces; the replaced value is the caller's
  /// to release, outside the lock.
  @discardableResult
  func store(_ value: Value) -> Value? {
    state.withLock { latest in
      defer { latest = value }
      return latest
    }
  }

  /// The latest value stored, if any.
  var current: Value? { state.withLock { $0 } }
}

// Checked: the one stored property is a `Locked` box, whose mutex guards the value.
extension LatestValue: Sendable where Value: Sendable {}

extension EventSource {
  /// Delivers the values of the source that `transform` picks for this source's latest
  /// value: on each value, the subscription switches to the new inner source.
  ///
  /// ```swift
  /// let messages = selectedRoom.flatMapLatest { $0.messages }   // ReadOnlyEvent<Message>
  /// ```
  ///
  /// The switch is synchronous, inside this source's notification: the old inner source is
  /// unsubscribed before the new one is observed, so no value of an inner source that is no
  /// longer selected is delivered after the switch (an inner property's replay is the first
  /// value after it). Calls to one handler never overlap: a value that arrives while the
  /// handler runs (also a switch the handler itself causes) is delivered after it returns,
  /// unless a switch came meanwhile. `transform` runs on the notifying thread with no lock
  /// held. Disposing the subscription ends the subscriptions to both sources. Known as
  /// `switchToLatest` and `flatMapLatest` in Combine and RxSwift.
  public func flatMapLatest<Inner: EventSource>(
    _ transform: @escaping (Value) -> Inner
  ) -> ReadOnlyEvent<Inner.Value> {
    ReadOnlyEvent { handler in
      let latest = LatestInnerSubscription<Inner.Value>()
      latest.outer.fill(observe { value in
        let inner = transform(value)
        guard let generation = latest.beginSwitch() else { return }
        latest.finishSwitch(
          inner.observe { latest.deliver($0, generation: generation, to: handler) },
          generation: generation
        )
      })
      return latest
    }
  }
}

extension PropertySource {
  /// A read-only property whose value is the value of the property that `transform` picks
  /// for this property's current value: it follows the inner property of the current outer
  /// value.
  ///
  /// ```swift
  /// let price: ReadOnlyProperty<Double> = selectedCity.flatMapLatest { $0.price }
  /// ```
  ///
  /// Its ``ReadOnlyProperty/value`` is `transform(value).value`. Observers hear the current
  /// inner value at once, then each set of the current inner property, and, when this
  /// property is set, the new inner property's value, synchronously: the old inner property
  /// is unsubscribed first, so no value of a property that is no longer selected is
  /// delivered after the switch. Calls to one handler never overlap and keep this order
  /// (see ``EventSource/flatMapLatest(_:)``). Disposing the subscription ends every
  /// subscription it made.
  public func flatMapLatest<Inner: PropertySource>(
    _ transform: @escaping (Value) -> Inner
  ) -> ReadOnlyProperty<Inner.Value> {
    func follow(changesOnly: Bool, _ handler: @escaping (Inner.Value) -> Void) -> any Disposable {
      let latest = LatestInnerSubscription<Inner.Value>()
      // The outer property's replay comes first, synchronously: with `changesOnly`, its inner
      // property is observed for changes only; every later outer value is a switch, whose
      // new inner value is delivered.
      var isReplay = changesOnly
      latest.outer.fill(observe { value in
        let inner = transform(value)
        let changesOnly = isReplay
        isReplay = false
        guard let generation = latest.beginSwitch() else { return }
        let deliver: (Inner.Value) -> Void = { latest.deliver($0, generation: generation, to: handler) }
        latest.finishSwitch(
          changesOnly ? inner.observeChanges(deliver) : inner.observe(deliver),
          generation: generation
        )
      })
      return latest
    }
    return ReadOnlyProperty(
      value: { transform(value).value },
      observe: { follow(changesOnly: false, $0) },
      observeChanges: { follow(changesOnly: true, $0) }
    )
  }
}
