@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension SharedPropertySource {
  /// A read-only property holding this property's settled value: its value when the
  /// operator was applied, then each change once `duration` has passed without another; see
  /// ``SharedEventSource/debounce(for:clock:isolation:)`` for where the timer's deliveries
  /// run and how deadlines are taken.
  ///
  /// The result replays its value to each new observer, as a property does. One
  /// subscription to this property feeds it, from the operator's application until the
  /// result and every subscription to it are released. Its initial value is the one this
  /// property replays to that subscription, so a change made while the operator is applied
  /// is not lost.
  public func debounce<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: any Actor = #isolation
  ) -> SharedReadOnlyProperty<Value> {
    SettledProperty.makeShared(from: self) { $0.debounce(for: duration, clock: clock, isolation: isolation) }
  }

  /// A read-only property holding the values a throttle lets through, starting with this
  /// property's value; see ``SharedEventSource/throttle(for:clock:latest:isolation:)`` and,
  /// for the result's lifetime, ``SharedPropertySource/debounce(for:clock:isolation:)``.
  public func throttle<C: Clock>(
    for interval: C.Duration,
    clock: C = ContinuousClock(),
    latest: Bool,
    isolation: any Actor = #isolation
  ) -> SharedReadOnlyProperty<Value> {
    SettledProperty.makeShared(from: self) {
      $0.throttle(for: interval, clock: clock, latest: latest, isolation: isolation)
    }
  }

  /// A read-only property holding this property's values, each `duration` after it was
  /// set, starting with its value; see ``SharedEventSource/delay(for:clock:isolation:)`` and,
  /// for the result's lifetime, ``SharedPropertySource/debounce(for:clock:isolation:)``.
  public func delay<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: any Actor = #isolation
  ) -> SharedReadOnlyProperty<Value> {
    SettledProperty.makeShared(from: self) { $0.delay(for: duration, clock: clock, isolation: isolation) }
  }
}

extension SettledProperty {
  /// The shared family's result: a `SharedProperty` fed by the operator applied to the
  /// source's changes. The feed subscribes with `observeNonisolated`, whose first, replayed
  /// value sets the result's initial value and does not go through the operator: no change
  /// falls between reading the value and subscribing to its changes.
  static func makeShared<Source: SharedPropertySource>(
    from source: Source,
    operator apply: (SharedReadOnlyEvent<Source.Value>) -> SharedReadOnlyEvent<Source.Value>
  ) -> SharedReadOnlyProperty<Source.Value> {
    let settled = SharedProperty(source.value)
    let changes = SharedReadOnlyEvent<Source.Value> { handler in
      let isReplay = Locked(true)
      return source.observeNonisolated { value in
        let replay = isReplay.withLock { isReplay in
          defer { isReplay = false }
          return isReplay
        }
        if replay { settled.value = value } else { handler(value) }
      }
    }
    let feed = Feed(apply(changes).observeNonisolated { settled.value = $0 })
    return SharedReadOnlyProperty(
      value: { withExtendedLifetime(feed) { settled.value } },
      observeNonisolated: { Subscription(settled.observeNonisolated($0), feed: feed) },
      observeChangesNonisolated: { Subscription(settled.observeChangesNonisolated($0), feed: feed) }
    )
  }
}
