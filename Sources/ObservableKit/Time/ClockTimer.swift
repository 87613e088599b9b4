/// One timer of a time operator's subscription, driven by its clock: armed with a deadline
/// where a value arrives, and awaited by the subscription's one task.
///
/// You need this protocol only to write a clock for tests. The time operators
/// (`debounce(for:clock:isolation:)` and the others) ask a clock that adopts
/// ``TimerDrivingClock`` for its timers; for any other clock they use a timer that sleeps
/// with `Clock.sleep(until:tolerance:)`.
///
/// A timer holds at most one deadline. Its subscription calls ``arm(at:)`` synchronously,
/// where the value arrives (so the deadline is the one taken then), awaits ``next()`` in a
/// loop, runs the handlers for each deadline it returns, then calls ``didHandle()``. A clock
/// that waits for ``didHandle()`` knows that the handlers of a deadline have run.
///
/// A handler may end its own subscription while it runs (`take(_:)`, `once()` and
/// `take(until:)` end it before they deliver the last value; a handler may dispose its
/// token or its bag): ``cancel()`` then comes between ``next()`` and ``didHandle()``, and
/// the subscription still calls ``didHandle()`` once the handlers have run. So a clock
/// acknowledges a firing in ``didHandle()`` alone while its handlers run, and in ``cancel()``
/// only a deadline no handler will run for.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public protocol ClockTimer<Instant>: AnyObject, Sendable {
  /// The clock's instant type.
  associatedtype Instant: InstantProtocol

  /// Sets the deadline, replacing any earlier one. Called from any thread, never with a
  /// lock of the library's held that user code could need.
  func arm(at deadline: Instant)

  /// Ends the timer: a pending ``next()`` returns `nil` at once, and so does every later one.
  /// Called from any thread, also by a handler of the deadline the last ``next()`` returned,
  /// while it runs: ``didHandle()`` still follows then.
  func cancel()

  /// Suspends until the armed deadline is reached, and returns it; returns `nil` once the
  /// timer is cancelled. A deadline armed while ``next()`` waits replaces the one it waits for.
  func next() async -> Instant?

  /// Says that the handlers for the deadline the last ``next()`` returned have run; called
  /// after every deadline ``next()`` returns, also when they cancelled the timer.
  func didHandle()
}

/// A clock that drives the time operators' timers itself instead of letting them sleep:
/// the hook a test clock such as `ObservableKitTesting.ManualClock` adopts to fire timers
/// exactly when it advances.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public protocol TimerDrivingClock: Clock {
  /// A new timer, not armed, for one subscription.
  func makeTimer() -> any ClockTimer<Instant>
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension Clock {
  /// The timer a time operator's subscription uses with this clock (the clock's own when it
  /// drives its timers, otherwise one that sleeps on it), and the function that arms it,
  /// made here so that it is specialized for the clock where the operator is.
  @inlinable
  func makeOperatorTimer() -> (timer: any ClockTimer<Instant>, arm: @Sendable (Instant) -> Void) {
    if let driving = self as? any TimerDrivingClock,
      let timer = driving.makeAnyTimer() as? any ClockTimer<Instant>
    {
      return (timer, { timer.arm(at: $0) })
    }
    let timer = SleepingTimer(clock: self)
    return (timer, { timer.arm(at: $0) })
  }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension TimerDrivingClock {
  @usableFromInline
  func makeAnyTimer() -> any ClockTimer {
    makeTimer()
  }
}

/// A timer no clock waits for: its firings' deliveries are not waited for (`FiringScope`).
protocol SleepsOnItsClock {}

/// The timer for a clock that does not drive its timers: it parks until armed, then sleeps
/// until the deadline with `Clock.sleep(until:tolerance:)`, and sleeps again when a later
/// deadline replaced the one it slept for. One sleep at a time, so no task per value.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class SleepingTimer<C: Clock>: ClockTimer, SleepsOnItsClock {
  @usableFromInline
  struct State: Sendable {
    @usableFromInline var deadline: C.Instant?
    @usableFromInline var parked: CheckedContinuation<Void, Never>?
    @usableFromInline var isCancelled = false

    @inlinable
    init() {}
  }

  private enum Step {
    case stop
    case again
    case fire(C.Instant)
  }

  @usableFromInline let clock: C
  @usableFromInline let state: Locked<State>

  @inlinable
  init(clock: C) {
    self.clock = clock
    state = Locked(State())
  }

  @inlinable
  func arm(at deadline: C.Instant) {
    let parked = state.withLock { state in
      state.deadline = deadline
      defer { state.parked = nil }
      return state.parked
    }
    parked?.resume()
  }

  @usableFromInline
  func cancel() {
    let parked = state.withLock { state in
      state.isCancelled = true
      state.deadline = nil
      defer { state.parked = nil }
      return state.parked
    }
    parked?.resume()
  }

  @usableFromInline
  func next() async -> C.Instant? {
    while true {
      guard let target = await armedDeadline() else { return nil }
      // A cancelled task (the subscription was disposed) ends the sleep early; the state
      // says so below.
      try? await clock.sleep(until: target, tolerance: nil)
      let step = state.withLock { state -> Step in
        guard !state.isCancelled else { return .stop }
        guard let deadline = state.deadline else { return .again }
        // A value that came during the sleep moved the deadline later: sleep again.
        if deadline > target { return .again }
        state.deadline = nil
        return .fire(deadline)
      }
      switch step {
      case .stop: return nil
      case .again: if Task.isCancelled { return nil }
      case .fire(let deadline): return deadline
      }
    }
  }

  @usableFromInline
  func didHandle() {}

  /// The armed deadline, once there is one; `nil` once cancelled.
  private func armedDeadline() async -> C.Instant? {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let parks = state.withLock { state in
        if state.isCancelled || state.deadline != nil { return false }
        state.parked = continuation
        return true
      }
      if !parks { continuation.resume() }
    }
    return state.withLock { $0.isCancelled ? nil : $0.deadline }
  }
}
