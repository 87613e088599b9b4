@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension SharedEventSource {
  /// Delivers a value once `duration` has passed without another value; see
  /// `debounce(for:clock:isolation:)`.
  ///
  /// The timer's deliveries run isolated to `isolation`: by default the actor of the code
  /// that applies the operator (from nonisolated code that is a compile error), or any
  /// actor you pass, as Combine asks for a scheduler. A handler registered with
  /// ``SharedEventSource/observe(_:fileID:line:)`` then keeps its own isolation as always; one
  /// registered with ``SharedEventSource/observeNonisolated(_:)`` runs on that actor. Values
  /// may arrive from any thread; the deadline is taken when each arrives.
  @inlinable
  public func debounce<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: any Actor = #isolation
  ) -> SharedReadOnlyEvent<Value> {
    timed(clock: clock, isolation: isolation) { DebounceRule(duration: duration, start: $0) }
  }

  /// Delivers the first value at once (on the notifying thread), then at most one per
  /// `interval`, at each interval's end, on `isolation`; see
  /// `throttle(for:clock:latest:isolation:)`.
  @inlinable
  public func throttle<C: Clock>(
    for interval: C.Duration,
    clock: C = ContinuousClock(),
    latest: Bool,
    isolation: any Actor = #isolation
  ) -> SharedReadOnlyEvent<Value> {
    timed(clock: clock, isolation: isolation) { ThrottleRule(interval: interval, latest: latest, start: $0) }
  }

  /// Delivers each value `duration` after it arrived, in arrival order, on `isolation`; see
  /// `delay(for:clock:isolation:)`.
  @inlinable
  public func delay<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: any Actor = #isolation
  ) -> SharedReadOnlyEvent<Value> {
    timed(clock: clock, isolation: isolation) { _ in DelayRule(duration: duration) }
  }

  @inlinable
  func timed<C: Clock, Rule: TimeRule & Sendable>(
    clock: C,
    isolation: any Actor,
    rule makeRule: @escaping @Sendable (C.Instant) -> Rule
  ) -> SharedReadOnlyEvent<Value> where Rule.Value == Value, Rule.Instant == C.Instant {
    SharedReadOnlyEvent { handler in
      let relay = SharedTimedRelay(makeRule(clock.now), handler: handler)
      // Sendable, so a lock may hold it; released at the end of the subscription.
      let slot = Locked<SharedTimedRelay<Rule>?>(relay)
      let (timer, armTimer) = clock.makeOperatorTimer()
      let loop = TimerLoop(
        timer: timer,
        armTimer: armTimer,
        target: isolation,
        fire: { _, deadline, loop in slot.withLock { $0 }?.fire(at: deadline, arming: loop) },
        onEnd: {
          let relay = slot.withLock { slot in
            defer { slot = nil }
            return slot
          }
          withExtendedLifetime(relay) {}
        },
        heldValues: RuleRelease(relay.rule)
      )
      let signal = SourceEndSignal(loop)
      loop.attach(observeNonisolated { value in
        withExtendedLifetime(signal) { relay.arrive(value, at: clock.now, arming: loop) }
      })
      return loop
    }
  }
}
