/// The machinery behind the time operators: per subscription, the operator's rule under a
/// lock, one timer, and at most one task, started at the first deadline, that awaits the
/// timer and runs the handlers isolated to the operator's actor.
///
/// Values arrive synchronously in the source's domain: the deadline is computed there,
/// from the clock's `now` at arrival, and armed before `observe`'s handler returns, so a
/// task that starts late cannot stretch it. The task only waits; it never decides.

/// A value of one actor's isolation domain, handed out only to code that the compiler runs
/// isolated to that actor.
///
/// The time operators of the confined family need this: the downstream handler is a plain
/// closure of the source's domain (the actor captured with `#isolation` when the operator
/// was applied), and the timer's task must call it there. The task is isolated to that
/// actor through an `isolated` parameter, and `withValue` checks that it is the same actor,
/// so the value is only ever touched in its own domain: what an actor's stored property
/// guarantees, for an actor known only at run time.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class ActorBound<Value>: @unchecked Sendable {
  // `slot` is only touched under its lock, and the value in it is only used by `withValue`,
  // isolated to `owner`; `clear` only releases it.
  let owner: any Actor
  private let slot: Locked<Value?>

  @usableFromInline
  init(_ value: Value, owner: any Actor) {
    self.owner = owner
    slot = Locked(value)
  }

  /// Runs `body` with the value, if it was not cleared; the caller is isolated to `owner`.
  @usableFromInline
  func withValue(_ isolation: isolated any Actor, _ body: (Value) -> Void) {
    precondition(isolation === owner, "ActorBound used outside its actor")
    guard let value = slot.withLock({ $0 }) else { return }
    body(value)
  }

  /// Releases the value, outside the lock.
  @usableFromInline
  func clear() {
    let value = slot.withLock { slot in
      defer { slot = nil }
      return slot
    }
    withExtendedLifetime(value) {}
  }
}

/// What the timer's task calls for a deadline; erases the rule's type, which a `@Sendable`
/// closure may not capture unless it is `SendableMetatype` (Swift 6.2).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
protocol DeadlineHandling<Instant>: AnyObject {
  associatedtype Instant: InstantProtocol
  func fire(at deadline: Instant, arming loop: TimerLoop<Instant>)
}

/// The confined family's relay: the rule and the downstream handler, used in the source's
/// domain (values arrive there, and the timer's task runs there).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class TimedRelay<Rule: TimeRule>: DeadlineHandling {
  @usableFromInline let rule: Locked<Rule>
  @usableFromInline let handler: (Rule.Value) -> Void

  @inlinable
  init(_ rule: Rule, handler: @escaping (Rule.Value) -> Void) {
    self.rule = Locked(rule)
    self.handler = handler
  }

  /// The rule decides under the lock, and arms the timer there, so that deadlines reach the
  /// timer in the order the rule made them; the handler runs after the lock is dropped.
  @inlinable
  func arrive(_ value: Rule.Value, at now: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    let deliver = rule.withLock { rule in
      let (deliver, deadline) = rule.arrive(value, at: now)
      if let deadline { loop.arm(at: deadline) }
      return deliver
    }
    if let deliver { handler(deliver) }
  }

  @usableFromInline
  func fire(at deadline: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    let values = rule.withLock { rule in
      let (values, next) = rule.fire(at: deadline)
      if let next { loop.arm(at: next) }
      return values
    }
    for value in values { handler(value) }
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
    let deliver = rule.withLock { rule in
      let (deliver, deadline) = rule.arrive(value, at: now)
      if let deadline { loop.arm(at: deadline) }
      return deliver
    }
    if let deliver { handler(deliver) }
  }

  @usableFromInline
  func fire(at deadline: Rule.Instant, arming loop: TimerLoop<Rule.Instant>) {
    let values = rule.withLock { rule in
      let (values, next) = rule.fire(at: deadline)
      if let next { loop.arm(at: next) }
      return values
    }
    for value in values { handler(value) }
  }
}

/// One subscription's timer and its task. The task starts at the first deadline, runs
/// isolated to `target`, and calls `fire` for each deadline the timer returns; it ends when
/// the timer is cancelled (dispose), or when the source has released the subscription and
/// no deadline is armed.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
final class TimerLoop<Instant: InstantProtocol>: Disposable {
  @usableFromInline typealias Fire = @Sendable (isolated any Actor, Instant, TimerLoop) -> Void

  /// What the task needs and what ends the subscription's hold on its domain. Released at
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

  /// - Parameters:
  ///   - armTimer: Arms `timer`; made where the clock's type is known, so that it is
  ///     specialized (the arrival path's cost).
  ///   - target: The actor the task runs on.
  ///   - fire: Runs the handlers for one deadline, isolated to `target`.
  ///   - onEnd: Releases what the subscription holds in its domain (the relay's box).
  @usableFromInline
  init(
    timer: any ClockTimer<Instant>,
    armTimer: @escaping @Sendable (Instant) -> Void,
    target: any Actor,
    fire: @escaping Fire,
    onEnd: @escaping @Sendable () -> Void
  ) {
    self.timer = timer
    self.armTimer = armTimer
    parts = Locked(Parts(fire: fire, target: target, onEnd: onEnd))
  }

  /// Connects the upstream subscription.
  @usableFromInline
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  /// Arms the timer, and starts the task at the first deadline. Called with the relay's
  /// lock held, so deadlines reach the timer in the order the rule decided them; it takes
  /// only this loop's and the timer's locks, and runs no user code.
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

  /// Starts the task at the first deadline. The task holds the loop until it ends (dispose,
  /// or the source's end), then lets go.
  private func startTask() {
    parts.withLock { parts in
      guard let parts else { return }
      let task = Task { [timer, fire = parts.fire, target = parts.target] in
        await Self.run(isolation: target, timer: timer, loop: self, fire: fire)
      }
      state.withLock { $0.task = task }
    }
  }

  /// The subscription's one task: isolated to `isolation` throughout, so each `fire` runs
  /// there with no hop of its own; it awaits the timer between deadlines.
  private static func run(isolation: isolated any Actor, timer: any ClockTimer<Instant>, loop: TimerLoop, fire: Fire) async {
    while let deadline = await timer.next() {
      loop.state.withLock { $0.isArmed = false }
      fire(isolation, deadline, loop)
      timer.didHandle()
      if loop.state.withLock({ $0.sourceEnded && !$0.isArmed }) { break }
    }
    loop.end()
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

  /// Cancels the timer and releases the fire closure and the relay; what they capture is
  /// released here, outside the locks.
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
