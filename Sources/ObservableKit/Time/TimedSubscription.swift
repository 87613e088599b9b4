/// The machinery behind the time operators: per subscription, the operator's rule under a
/// lock, one timer, and at most one task, that awaits the timer and runs the handlers
/// isolated to the operator's actor.
///
/// Values arrive synchronously in the source's domain: the deadline is computed there,
/// from the clock's `now` at arrival, and armed before `observe`'s handler returns, so a
/// task that starts late cannot stretch it. The task only waits; it never decides.

/// What the timer's task calls for a deadline; erases the rule's type, which a `@Sendable`
/// closure may not capture unless it is `SendableMetatype` (Swift 6.2).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
protocol DeadlineHandling<Instant>: AnyObject {
  associatedtype Instant: InstantProtocol
  func fire(at deadline: Instant, arming loop: TimerLoop<Instant>)
}

/// Empties a rule when its subscription ends, so that disposing releases the values it
/// holds (a debounce's waiting value, a throttle's, a delay's queue) before `dispose()`
/// returns, on the disposing thread, rather than when the timer's task next runs on its
/// actor. The values are taken under the rule's lock and released after it is dropped (a
/// value's deinit may call back into the library).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class RuleRelease<Rule: TimeRule>: Disposable, @unchecked Sendable {
  // Sendable by hand: `rule` is touched only under its own lock (the `Locked` buffer's
  // mutex). This type only takes the values out under that lock and drops them: it never
  // reads or calls one (a value that is a closure is released, never called), as the engine
  // releases a confined subscription's handler on the disposing thread.
  @usableFromInline let rule: Locked<Rule>
  private let ended = Locked(false)

  @inlinable
  init(_ rule: Locked<Rule>) {
    self.rule = rule
  }

  @usableFromInline
  func dispose() {
    guard ended.withLock({ ended in defer { ended = true }; return !ended }) else { return }
    let values = rule.withLock { $0.removeAll() }
    withExtendedLifetime(values) {}
  }

  @usableFromInline
  var isDisposed: Bool { ended.withLock { $0 } }
}

/// The confined family's relay: the rule, and the event the downstream handler observes.
/// Not Sendable: it lives in the source's domain, where values arrive, and the timer's task
/// is isolated to that domain's actor, so the compiler checks every use (see `timed`).
///
/// The downstream handler is registered on `output`, not stored here, so that disposing from
/// any thread releases it at once, through the engine's own subscription; the relay itself
/// (the rule and an event with no observer left) goes when the task ends on its actor.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class TimedRelay<Rule: TimeRule>: DeadlineHandling {
  @usableFromInline let rule: Locked<Rule>
  @usableFromInline let output = ObservableEvent<Rule.Value>()

  @inlinable
  init(_ rule: Rule) {
    self.rule = Locked(rule)
  }

  /// The rule decides under the lock, and arms the timer there, so that deadlines reach the
  /// timer in the order the rule made them; the handler runs after the lock is dropped.
  @inlinable
  func arrive(_ value: Rule.Value, at now: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    schedulePoint("time.arrive: now read; the rule decides under its lock")
    let deliver = rule.withLock { rule in
      let (deliver, deadline) = rule.arrive(value, at: now)
      if let deadline { loop.arm(at: deadline) }
      return deliver
    }
    schedulePoint("time.arrive: decided; delivering outside the lock")
    if let deliver { output.notifyObservers(deliver) }
  }

  /// Runs isolated to the operator's actor, after the hop from the timer: values may have
  /// arrived since the timer claimed `deadline`, so the rule, under its lock, delivers only
  /// what was due by `deadline` (see `TimeRule`).
  @usableFromInline
  func fire(at deadline: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    schedulePoint("time.fire: the deadline claimed; the rule rechecks it under its lock")
    let values = rule.withLock { rule in
      let (values, next) = rule.fire(at: deadline)
      if let next { loop.arm(at: next) }
      return values
    }
    schedulePoint("time.fire: values taken; delivering outside the lock")
    for value in values { output.notifyObservers(value) }
  }
}

/// The shared family's relay: the same, with a `@Sendable` handler, so values may arrive on
/// any thread. Between the rule's decision and the handler's call the lock is dropped: a
/// throttle's opening value (on the notifying thread) and a deadline's value (on the
/// operator's actor) may then reach `observeNonisolated` handlers concurrently, as values
/// notified from two threads do; `observe` handlers are serialized by their own delivery.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class SharedTimedRelay<Rule: TimeRule & Sendable>: DeadlineHandling, Sendable where Rule.Value: Sendable {
  @usableFromInline let rule: Locked<Rule>
  @usableFromInline let handler: @Sendable (Rule.Value) -> Void

  @inlinable
  init(_ rule: Rule, handler: @escaping @Sendable (Rule.Value) -> Void) {
    self.rule = Locked(rule)
    self.handler = handler
  }

  @inlinable
  func arrive(_ value: Rule.Value, at now: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    schedulePoint("time.arrive: now read; the rule decides under its lock")
    let deliver = rule.withLock { rule in
      let (deliver, deadline) = rule.arrive(value, at: now)
      if let deadline { loop.arm(at: deadline) }
      return deliver
    }
    schedulePoint("time.arrive: decided; delivering outside the lock")
    if let deliver { handler(deliver) }
  }

  /// Runs isolated to the operator's actor, after the hop from the timer: values may have
  /// arrived since the timer claimed `deadline`, so the rule, under its lock, delivers only
  /// what was due by `deadline` (see `TimeRule`).
  @usableFromInline
  func fire(at deadline: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    schedulePoint("time.fire: the deadline claimed; the rule rechecks it under its lock")
    let values = rule.withLock { rule in
      let (values, next) = rule.fire(at: deadline)
      if let next { loop.arm(at: next) }
      return values
    }
    schedulePoint("time.fire: values taken; delivering outside the lock")
    for value in values { handler(value) }
  }
}

/// One subscription's timer and its task. The task runs isolated to the operator's actor,
/// and runs the handlers for each deadline the timer returns; it ends when the timer is
/// cancelled (dispose), or when the source has released the subscription and no deadline is
/// armed.
///
/// The confined family starts its task when the subscription is made, in the source's
/// domain (`start(_:)`), isolated by the compiler to the operator's actor; the shared family
/// starts it at the first deadline (`init(timer:armTimer:target:fire:onEnd:)`), with a
/// Sendable relay. While it runs, the task holds that actor: disposing, or the source's end,
/// lets go of it.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class TimerLoop<Instant: InstantProtocol>: Disposable {
  @usableFromInline typealias Fire = @Sendable (isolated any Actor, Instant, TimerLoop) -> Void

  /// What the shared family's task needs, and what ends its hold on its domain. Released at
  /// the end (dispose, or the source's end): `target` is often the actor that holds this
  /// subscription's token, so keeping it would make a cycle.
  private struct Parts {
    let fire: Fire
    let target: any Actor
    let onEnd: @Sendable () -> Void
  }

  private let timer: any ClockTimer<Instant>
  private let armTimer: @Sendable (Instant) -> Void
  // Not generic, so that the arrival path looks up no generic metadata; `parts` is in a
  // lock of its own, touched only when the task starts and at the end.
  private let state = Locked(TimerLoopState())
  private let parts: Locked<Parts?>
  private let upstream = DisposableSlot()
  private let downstream = DisposableSlot()
  /// Empties the rule at the end (`RuleRelease`).
  private let heldValues = DisposableSlot()

  /// The shared family's loop: the task starts at the first deadline.
  ///
  /// - Parameters:
  ///   - armTimer: Arms `timer`; made where the clock's type is known, so that it is
  ///     specialized (the arrival path's cost).
  ///   - target: The actor the task runs on.
  ///   - fire: Runs the handlers for one deadline, isolated to `target`.
  ///   - onEnd: Releases what the subscription holds (the relay).
  ///   - heldValues: Empties the rule at the end.
  @usableFromInline
  init(
    timer: any ClockTimer<Instant>,
    armTimer: @escaping @Sendable (Instant) -> Void,
    target: any Actor,
    fire: @escaping Fire,
    onEnd: @escaping @Sendable () -> Void,
    heldValues: any Disposable
  ) {
    self.timer = timer
    self.armTimer = armTimer
    parts = Locked(Parts(fire: fire, target: target, onEnd: onEnd))
    self.heldValues.fill(heldValues)
  }

  /// The confined family's loop: its task is started by `start(_:)`, and `downstream` is
  /// the subscription of the downstream handler, ended with the loop, as is `heldValues`,
  /// which empties the rule.
  @usableFromInline
  init(
    timer: any ClockTimer<Instant>,
    armTimer: @escaping @Sendable (Instant) -> Void,
    downstream: any Disposable,
    heldValues: any Disposable
  ) {
    self.timer = timer
    self.armTimer = armTimer
    parts = Locked(nil)
    self.downstream.fill(downstream)
    self.heldValues.fill(heldValues)
    state.withLock { $0.isStarted = true }
  }

  /// Connects the upstream subscription.
  @usableFromInline
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  /// Keeps the confined family's task, to cancel it on dispose.
  @usableFromInline
  func start(_ task: Task<Void, Never>) {
    let ended = state.withLock { state in
      if !state.isDisposed { state.task = task }
      return state.isDisposed
    }
    if ended { task.cancel() }
  }

  /// The confined family's task body: isolated to the operator's actor, the relay's domain,
  /// so the relay and its handlers are used only there, as the compiler checks.
  @usableFromInline
  func drive(_ isolation: isolated any Actor, _ relay: any DeadlineHandling<Instant>) async {
    await run(isolation) { relay.fire(at: $0, arming: self) }
  }

  /// Arms the timer (and, for the shared family, starts the task at the first deadline).
  /// Called with the relay's lock held, so deadlines reach the timer in the order the rule
  /// decided them; it takes only this loop's and the timer's locks, and runs no user code.
  @usableFromInline
  func arm(at deadline: Instant) {
    let start = state.withLock { state -> Bool in
      guard !state.isDisposed else { return false }
      state.isArmed = true
      armTimer(deadline)
      defer { state.isStarted = true }
      return !state.isStarted
    }
    if start { startTask() }
  }

  /// Starts the shared family's task at the first deadline. The task holds the loop until
  /// it ends (dispose, or the source's end), then lets go.
  private func startTask() {
    parts.withLock { parts in
      guard let parts else { return }
      let task = Task { [fire = parts.fire, target = parts.target] in
        await Self.runShared(isolation: target, loop: self, fire: fire)
      }
      state.withLock { $0.task = task }
    }
  }

  private static func runShared(isolation: isolated any Actor, loop: TimerLoop, fire: Fire) async {
    await loop.run(isolation) { fire(isolation, $0, loop) }
  }

  /// The subscription's one task: isolated to `isolation` throughout, so each `fire` runs
  /// there with no hop of its own; it awaits the timer between deadlines.
  ///
  /// Invariant: every deadline `next()` returns is followed by `didHandle()`, after `fire`
  /// has returned, unconditionally: a handler that ends the subscription during `fire`
  /// (`take(_:)`, `once()`, `take(until:)`, a `dispose()`, the source's release) cancels
  /// the timer from inside the firing, and a clock that waits for the firing
  /// (`TimerDrivingClock`) is told by this call, not by that cancel, once the handlers ran.
  ///
  /// In a debug build, a clock that waits for the firing (one that drives its timers) also
  /// waits for the deliveries the handlers left for a job of another actor, or of this one
  /// (an actor-isolated shared `observe`, a main-actor one reached off the main actor):
  /// `fire` runs in a ``FiringScope``, which each such delivery makes its drain owe an end,
  /// and `didHandle()` comes once they have all ended. The await lets this actor run those
  /// jobs meanwhile. It cannot hang: a drain ends its entries when it finds nothing waiting
  /// or its mailbox closed (a dispose during the wait), and one whose actor is gone ends
  /// them at once.
  private func run(_ isolation: isolated any Actor, fire: (Instant) -> Void) async {
    #if DEBUG
    let waitsForDeliveries = !(timer is any SleepsOnItsClock)
    #endif
    while let deadline = await timer.next() {
      state.withLock { $0.isArmed = false }
      #if DEBUG
      if waitsForDeliveries {
        let scope = FiringScope()
        FiringScope.$current.withValue(scope) { fire(deadline) }
        await scope.close()
      } else {
        fire(deadline)
      }
      #else
      fire(deadline)
      #endif
      timer.didHandle()
      if state.withLock({ $0.sourceEnded && !$0.isArmed }) { break }
    }
    end()
  }

  /// The source released the upstream handler: nothing more arrives. What is armed still
  /// fires; then the subscription ends.
  func sourceEnded() {
    let idle = state.withLock { state in
      state.sourceEnded = true
      return !state.isArmed
    }
    if idle { end() }
  }

  /// Cancels the timer, ends the downstream subscription, empties the rule and releases the
  /// shared family's fire closure and relay; what they capture, and the values the rule
  /// held, are released here, outside the locks, before `dispose()` returns.
  private func end() {
    let task = state.withLock { state in
      state.isDisposed = true
      defer { state.task = nil }
      return state.task
    }
    let parts = parts.withLock { parts in
      defer { parts = nil }
      return parts
    }
    timer.cancel()
    downstream.dispose()
    heldValues.dispose()
    parts?.onEnd()
    withExtendedLifetime((parts, task)) {}
  }

  @usableFromInline
  func dispose() {
    upstream.dispose()
    let task = state.withLock { $0.task }
    end()
    task?.cancel()
  }

  @usableFromInline
  var isDisposed: Bool { state.withLock { $0.isDisposed } }
}

/// A timer loop's flags; see `TimerLoop`.
private struct TimerLoopState {
  var task: Task<Void, Never>?
  var isStarted = false
  var isArmed = false
  var sourceEnded = false
  var isDisposed = false
}

/// Captured by the upstream handler only: when the source releases that handler (the
/// source went away), it tells the loop that nothing more arrives.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class SourceEndSignal<Instant: InstantProtocol>: Sendable {
  private let loop: TimerLoop<Instant>

  @usableFromInline
  init(_ loop: TimerLoop<Instant>) {
    self.loop = loop
  }

  deinit {
    loop.sourceEnded()
  }
}
