@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension EventSource {
  /// Delivers a value once `duration` has passed without another value: the last of each
  /// burst, as a search field wants.
  ///
  /// ```swift
  /// @MainActor final class SearchModel {
  ///   let query = Property("")
  ///   let bag = DisposeBag()
  ///   init() {
  ///     query.changes.debounce(for: .milliseconds(300))
  ///       .observe { [weak self] text in self?.search(text) }.disposed(by: bag)
  ///   }
  /// }
  /// ```
  ///
  /// The deadline is the arrival of the value on `clock`, plus `duration`, taken before the
  /// source's notification returns. Handlers run isolated to `isolation`: the actor of the
  /// code that applies the operator (the main actor in UI code), never on a timer's thread.
  /// Applying it from nonisolated code is a compile error ("call to actor-isolated instance
  /// method 'debounce(for:clock:isolation:)' in a synchronous nonisolated context", and
  /// "'nil' is not compatible with expected argument type 'any Actor'"): there is no domain
  /// to deliver to. Use ``SharedEvent``, whose operators take an explicit actor.
  ///
  /// Each subscription has one timer and one task, made with the subscription, isolated to
  /// `isolation`, which waits on `clock`; no task is made per value. While the subscription
  /// lives, its task holds that actor (for the main actor, which is always there, this
  /// changes nothing): an actor of yours that keeps its own subscription ends it (dispose,
  /// or a bag it empties) for the actor to be released. Disposing the subscription
  /// cancels the timer and releases the chain. A value still waiting when the source goes
  /// away is delivered at its deadline; then the subscription ends.
  @inlinable
  public func debounce<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: isolated (any Actor) = #isolation
  ) -> ReadOnlyEvent<Value> {
    timed(clock: clock, isolation: isolation) { DebounceRule(duration: duration, start: $0) }
  }

  /// Delivers the first value at once, then at most one value per `interval`: at the end of
  /// each interval, the latest value received during it (`latest: true`) or the first
  /// (`latest: false`), which starts the next interval. An interval with no value ends
  /// quietly, and the next value again goes at once. Combine's `throttle` semantics.
  ///
  /// Intervals follow one another exactly: the next starts at the previous one's deadline,
  /// not when its task woke. Where handlers run, and what disposing does, is as for
  /// `debounce(for:clock:isolation:)`; the value that opens an interval is delivered
  /// synchronously, before the source's notification returns.
  @inlinable
  public func throttle<C: Clock>(
    for interval: C.Duration,
    clock: C = ContinuousClock(),
    latest: Bool,
    isolation: isolated (any Actor) = #isolation
  ) -> ReadOnlyEvent<Value> {
    timed(clock: clock, isolation: isolation) { ThrottleRule(interval: interval, latest: latest, start: $0) }
  }

  /// Delivers each value `duration` after it arrived, in arrival order.
  ///
  /// Where handlers run, and what disposing does, is as for
  /// `debounce(for:clock:isolation:)`. Values still waiting when the source goes away are
  /// delivered at their deadlines.
  @inlinable
  public func delay<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: isolated (any Actor) = #isolation
  ) -> ReadOnlyEvent<Value> {
    timed(clock: clock, isolation: isolation) { _ in DelayRule(duration: duration) }
  }

  /// One subscription of a time operator: values arrive synchronously (the deadline is
  /// taken there), the timer's task runs the rest isolated to `isolation`.
  ///
  /// The subscription closure uses `isolation`, and so does the task's closure (not in a
  /// capture list): by SE-0420 both are then isolated to it, and region-based isolation lets
  /// the task use the relay, a value of this domain. No runtime check is needed.
  @inlinable
  func timed<C: Clock, Rule: TimeRule>(
    clock: C,
    isolation: isolated any Actor,
    rule makeRule: @escaping (C.Instant) -> Rule
  ) -> ReadOnlyEvent<Value> where Rule.Value == Value, Rule.Instant == C.Instant {
    ReadOnlyEvent { handler in
      let relay = TimedRelay(makeRule(clock.now))
      let (timer, armTimer) = clock.makeOperatorTimer()
      let loop = TimerLoop(
        timer: timer,
        armTimer: armTimer,
        downstream: relay.output.observe(handler),
        heldValues: RuleRelease(relay.rule)
      )
      let signal = SourceEndSignal(loop)
      loop.attach(observe { value in
        withExtendedLifetime(signal) { relay.arrive(value, at: clock.now, arming: loop) }
      })
      loop.start(Task { await loop.drive(isolation, relay) })
      return loop
    }
  }
}
