// The shared family's compositions, at parity with EventSource+Compositions.swift: the same
// spellings and rules. Operator closures are @Sendable and run on the notifying thread with
// no lock held; the handler at the end of the chain keeps the isolation of the code that
// registers it (see SharedEventSource.observe).

extension SharedEventSource {
  /// Delivers the values of this source and of `others`, as each arrives; disposing the
  /// subscription ends the subscriptions to every source. See ``EventSource/merge(with:)``.
  public func merge<Other: SharedEventSource>(with others: Other...) -> SharedReadOnlyEvent<Value>
  where Other.Value == Value {
    let sources = [SharedReadOnlyEvent(self)] + others.map { SharedReadOnlyEvent($0) }
    return sources.merge()
  }

  /// Delivers a running result: `nextPartialResult` folds each value into the result
  /// delivered before it, starting from `initialResult`; see ``EventSource/scan(_:_:)``.
  ///
  /// Returns a ``SharedReadOnlyEvent``; each subscription keeps its own result. When values
  /// arrive on several threads at once, each is folded exactly once, on the newest result
  /// (`nextPartialResult` runs again if another thread stored a result meanwhile), and the
  /// handler's calls follow the order in which the results were stored only as far as the
  /// handler's isolation orders them.
  public func scan<Result: Sendable>(
    _ initialResult: Result,
    _ nextPartialResult: @escaping @Sendable (Result, Value) -> Result
  ) -> SharedReadOnlyEvent<Result> {
    SharedReadOnlyEvent { handler in
      let accumulator = Accumulator(initialResult)
      return observeNonisolated { value in handler(accumulator.fold(value, with: nextPartialResult)) }
    }
  }

  /// Delivers, each time this source delivers, the value `other` holds at that moment; as
  /// on a confined source, every value of this source is delivered.
  public func withLatestFrom<Other: SharedPropertySource>(_ other: Other) -> SharedReadOnlyEvent<Other.Value> {
    SharedReadOnlyEvent { handler in observeNonisolated { _ in handler(other.value) } }
  }

  /// Delivers `combine` of each value of this source with the value `other` holds at that
  /// moment.
  public func withLatestFrom<Other: SharedPropertySource, Result: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Value, Other.Value) -> Result
  ) -> SharedReadOnlyEvent<Result> {
    SharedReadOnlyEvent { handler in observeNonisolated { handler(combine($0, other.value)) } }
  }

  /// Delivers, each time this source delivers, the latest value `other` has delivered. **A
  /// value of this source that comes before `other` has delivered anything is not
  /// delivered**; pass a property when there must always be a latest value.
  public func withLatestFrom<Other: SharedEventSource>(_ other: Other) -> SharedReadOnlyEvent<Other.Value> {
    withLatestFrom(other) { _, latest in latest }
  }

  /// Delivers `combine` of each value of this source with the latest value `other` has
  /// delivered; values that come before `other` has delivered anything are not delivered.
  public func withLatestFrom<Other: SharedEventSource, Result: Sendable>(
    _ other: Other,
    _ combine: @escaping @Sendable (Value, Other.Value) -> Result
  ) -> SharedReadOnlyEvent<Result> {
    SharedReadOnlyEvent { handler in
      let latest = LatestValue<Other.Value>()
      let otherToken = other.observeNonisolated { latest.store($0) }
      let token = observeNonisolated { value in
        if let current = latest.current { handler(combine(value, current)) }
      }
      return CompositeDisposable([token, otherToken])
    }
  }

  /// Delivers `values` to each new subscription, then the values of this source, as on a
  /// confined source. The prepended values reach the handler as a property's replay does:
  /// before `observe` returns for a nonisolated handler, and for a main-actor handler
  /// registered on the main actor; in order, later, for a handler isolated to another actor.
  public func prepend(_ values: Value...) -> SharedReadOnlyEvent<Value> {
    prepend(values)
  }

  /// Delivers the elements of `values` to each new subscription, then the values of this
  /// source.
  public func prepend<Prefix: Sequence>(_ values: Prefix) -> SharedReadOnlyEvent<Value>
  where Prefix.Element == Value {
    let prefix = Array(values)
    return SharedReadOnlyEvent { handler in
      for value in prefix { handler(value) }
      return observeNonisolated(handler)
    }
  }

  /// Delivers each value together with the one before it, from the second value on; see
  /// ``EventSource/pairwise()``.
  public func pairwise() -> SharedReadOnlyEvent<(Value, Value)> {
    SharedReadOnlyEvent { handler in
      let previous = LatestValue<Value>()
      return observeNonisolated { value in
        if let last = previous.store(value) { handler((last, value)) }
      }
    }
  }
}

extension Collection where Element: SharedEventSource {
  /// Delivers the values of every source in the collection, as each arrives, as the confined
  /// family's `merge()` does. An empty collection gives an event that never delivers.
  public func merge() -> SharedReadOnlyEvent<Element.Value> {
    let sources = Array(self)
    return SharedReadOnlyEvent { handler in
      CompositeDisposable(sources.map { $0.observeNonisolated(handler) })
    }
  }
}

// `flatMapLatest`'s state is one type for both families (`LatestInnerSubscription`); the few
// lines that wire it to the sources are written again here, with `@Sendable` closures the
// compiler checks, for the reason CombineLatestState.swift gives.
extension SharedEventSource {
  /// Delivers the values of the source that `transform` picks for this source's latest
  /// value; see ``EventSource/flatMapLatest(_:)``.
  ///
  /// The switch runs on the thread that notifies this source. Once it has unsubscribed the
  /// old inner source, no value of it is called, also one notified on another thread at that
  /// moment, except a call that had already begun; calls to one handler never overlap.
  public func flatMapLatest<Inner: SharedEventSource>(
    _ transform: @escaping @Sendable (Value) -> Inner
  ) -> SharedReadOnlyEvent<Inner.Value> {
    SharedReadOnlyEvent { handler in
      let latest = LatestInnerSubscription<Inner.Value>()
      latest.outer.fill(observeNonisolated { value in
        let inner = transform(value)
        guard let generation = latest.beginSwitch() else { return }
        latest.finishSwitch(
          inner.observeNonisolated { latest.deliver($0, generation: generation, to: handler) },
          generation: generation
        )
      })
      return latest
    }
  }
}

extension SharedPropertySource {
  /// A read-only property that follows the inner property of this property's current
  /// value; see ``PropertySource/flatMapLatest(_:)`` and
  /// ``SharedEventSource/flatMapLatest(_:)`` for the threads.
  public func flatMapLatest<Inner: SharedPropertySource>(
    _ transform: @escaping @Sendable (Value) -> Inner
  ) -> SharedReadOnlyProperty<Inner.Value> {
    @Sendable func follow(changesOnly: Bool, _ handler: @escaping @Sendable (Inner.Value) -> Void) -> any Disposable {
      let latest = LatestInnerSubscription<Inner.Value>()
      // The outer property's replay is its first call, made during `observeNonisolated`;
      // with `changesOnly`, its inner property is observed for changes only.
      let isReplay = Locked(changesOnly)
      latest.outer.fill(observeNonisolated { value in
        let inner = transform(value)
        let changesOnly = isReplay.withLock { isReplay in
          defer { isReplay = false }
          return isReplay
        }
        guard let generation = latest.beginSwitch() else { return }
        let deliver: @Sendable (Inner.Value) -> Void = { latest.deliver($0, generation: generation, to: handler) }
        latest.finishSwitch(
          changesOnly ? inner.observeChangesNonisolated(deliver) : inner.observeNonisolated(deliver),
          generation: generation
        )
      })
      return latest
    }
    return SharedReadOnlyProperty(
      value: { transform(value).value },
      observeNonisolated: { follow(changesOnly: false, $0) },
      observeChangesNonisolated: { follow(changesOnly: true, $0) }
    )
  }
}
