import ObservableKit

/// A clock whose time moves only when a test advances it, and that fires the time
/// operators' timers itself, exactly and in deadline order.
///
/// ```swift
/// @MainActor @Test func searchWaitsForTheUserToStopTyping() async {
///   let clock = ManualClock()
///   let model = SearchModel(clock: clock)
///   let searches = model.searches.record()
///   model.query.value = "sw"
///   model.query.value = "swift"
///   await clock.advance(by: .milliseconds(299))
///   #expect(searches.values == [])
///   await clock.advance(by: .milliseconds(1))
///   #expect(searches.values == ["swift"])
/// }
/// ```
///
/// When ``advance(by:)`` or ``advance(to:)`` returns, every timer of a time operator
/// (`debounce`, `throttle`, `delay`) due by the new time has fired and its handlers have
/// run, in deadline order (timers due at the same instant in the order they were armed);
/// ``now`` stepped to each deadline as it fired, so a timer armed by a handler at that
/// time is due relative to it, and fires in the same advance when it falls within it.
/// A test needs no sleep and no `Task.yield()`: the clock hands each deadline to the timer's
/// task and waits until the task says its handlers ran (`TimerDrivingClock`).
///
/// That holds whatever a handler does: one that ends its own subscription while it runs
/// (`take(_:)`, `once()` and `take(until:)` do, before they deliver the last value; so does a
/// `dispose()` of its token or bag, or releasing the operator's source) cancels its timer
/// during the firing, and the clock still waits for the firing's end, not for that cancel.
///
/// It holds for a handler on any actor: one isolated to the actor the operator captured,
/// which may be another actor than the test's, and one that keeps the isolation of another
/// actor than the one the operator fires on (a shared event's `observe` inside an actor's
/// method, or on the main actor while the operator fires elsewhere), which a job of its
/// actor delivers: `advance` waits for the handler itself, until that job has run it (or
/// found its subscription disposed). `advance` does not wait for work the handler itself
/// starts elsewhere (a Task it spawns, `observe(on: queue)` downstream); use a recorder's
/// ``EventRecorder/waitForValues(count:timeout:fileID:line:isolation:)`` for that. The
/// wait for another actor's job is made by ObservableKit's debug build (what `swift test`
/// builds); in a release build the clock waits for the firing only.
///
/// Tasks that call ``sleep(until:tolerance:)`` directly are resumed in deadline order too,
/// but the clock cannot know when their work after waking ends.
///
/// Advance from one task at a time. Moving back in time is a no-op.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public final class ManualClock: TimerDrivingClock, Sendable {
  /// A point in a manual clock's time: the duration since the clock's start.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// The duration from the clock's start to this instant.
    public var offset: Duration

    /// The instant `offset` after the clock's start.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, as `Duration` prints it.
    public var description: String { "\(offset)" }
  }

  /// One timer's state, in the clock's lock.
  ///
  /// Invariant: `acknowledgement` is set exactly while a ring is pending, that is while the
  /// deadline waits in `ring` for the task to take it, or while the task holds it
  /// (`isFiring`: ``Timer/next()`` returned it and ``Timer/didHandle()`` has not come yet).
  /// One party resumes it, once: `didHandle()` while the task holds the firing, since
  /// `TimerLoop.run` calls it after the handlers of every deadline `next()` returned, even
  /// when they ended the subscription; `cancel()` otherwise, when no handler will run for
  /// the ring, so that an advance never waits for nothing.
  fileprivate struct TimerState {
    var deadline: Instant?
    var order: UInt64 = 0
    var waiter: CheckedContinuation<Instant?, Never>?
    var ring: Instant?
    var acknowledgement: (@Sendable () -> Void)?
    var isFiring = false
    /// Cancelled while firing: kept until `didHandle()` acknowledges, then removed.
    var isCancelled = false
  }

  private struct Sleeper {
    let deadline: Instant
    let order: UInt64
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: Instant
    var nextOrder: UInt64 = 0
    var nextID = 0
    var timers: [Int: TimerState] = [:]
    var sleepers: [Int: Sleeper] = [:]
  }

  private enum Due {
    case timer(Int, Instant)
    case sleeper(CheckedContinuation<Void, any Error>)
  }

  private let state: Locked<State>

  /// A clock at `now`, by default its start (offset zero).
  public init(now: Instant = Instant(offset: .zero)) {
    state = Locked(State(now: now))
  }

  /// The clock's current time.
  public var now: Instant { state.withLock { $0.now } }

  /// Zero: the clock moves only by ``advance(by:)`` and ``advance(to:)``.
  public var minimumResolution: Duration { .zero }

  /// Moves the clock `duration` forward; returns once every timer due by then has fired
  /// and its handlers have run, in deadline order, also a handler that ended its own
  /// subscription while it ran, and one on another actor.
  public func advance(by duration: Duration) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves the clock to `deadline`; returns once every timer due by then has fired and its
  /// handlers have run, in deadline order. A `deadline` before ``now`` does nothing.
  public func advance(to deadline: Instant) async {
    while let due = nextDue(by: deadline) {
      switch due {
      case .sleeper(let continuation):
        continuation.resume()
      case .timer(let id, let instant):
        await ring(id, at: instant)
      }
    }
  }

  /// Suspends until the clock reaches `deadline`; throws `CancellationError` when the task
  /// is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> Bool in
          if deadline <= state.now || Task.isCancelled { return true }
          defer { state.nextOrder += 1 }
          state.sleepers[id] = Sleeper(deadline: deadline, order: state.nextOrder, continuation: continuation)
          return false
        }
        if resumeNow {
          if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
        }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// A timer for one subscription of a time operator; see `TimerDrivingClock`.
  public func makeTimer() -> any ClockTimer<Instant> {
    let id = state.withLock { state in
      defer { state.nextID += 1 }
      state.timers[state.nextID] = TimerState()
      return state.nextID
    }
    return Timer(clock: self, id: id)
  }

  /// The number of timers armed and sleepers waiting: what the next advances may fire.
  public var pendingCount: Int {
    state.withLock { state in
      state.timers.values.filter { $0.deadline != nil }.count + state.sleepers.count
    }
  }

  /// Takes the earliest timer or sleeper due by `limit` and steps ``now`` to its deadline;
  /// at the end steps ``now`` to `limit`.
  private func nextDue(by limit: Instant) -> Due? {
    state.withLock { state in
      var best: (deadline: Instant, order: UInt64, due: Due, sleeperID: Int?)?
      for (id, timer) in state.timers {
        guard let deadline = timer.deadline, deadline <= limit else { continue }
        if best.map({ (deadline, timer.order) < ($0.deadline, $0.order) }) ?? true {
          best = (deadline, timer.order, .timer(id, deadline), nil)
        }
      }
      for (id, sleeper) in state.sleepers where sleeper.deadline <= limit {
        if best.map({ (sleeper.deadline, sleeper.order) < ($0.deadline, $0.order) }) ?? true {
          best = (sleeper.deadline, sleeper.order, .sleeper(sleeper.continuation), id)
        }
      }
      guard let best else {
        if state.now < limit { state.now = limit }
        return nil
      }
      if state.now < best.deadline { state.now = best.deadline }
      if let id = best.sleeperID {
        state.sleepers[id] = nil
      } else if case .timer(let id, _) = best.due {
        state.timers[id]?.deadline = nil
      }
      return best.due
    }
  }

  /// Hands `deadline` to the timer's task and waits until it says its handlers ran.
  private func ring(_ id: Int, at deadline: Instant) async {
    await withCheckedContinuation { (acknowledgement: CheckedContinuation<Void, Never>) in
      ring(id, at: deadline) { acknowledgement.resume() }
    }
  }

  /// The synchronous part of a ring: `acknowledge` is called once the handlers of the
  /// firing have run, or at once when the timer is gone (nothing will run for it).
  func ring(_ id: Int, at deadline: Instant, acknowledge: @escaping @Sendable () -> Void) {
    let (waiter, gone) = state.withLock { state -> (CheckedContinuation<Instant?, Never>?, Bool) in
      guard var timer = state.timers[id], !timer.isCancelled else { return (nil, true) }
      defer { state.timers[id] = timer }
      timer.acknowledgement = acknowledge
      if let waiter = timer.waiter {
        // Handed to the task under the lock: from here on the acknowledgement is its
        // `didHandle()`'s, and a `cancel()` made while the handlers run leaves it alone.
        timer.waiter = nil
        timer.isFiring = true
        return (waiter, false)
      }
      timer.ring = deadline
      return (nil, false)
    }
    if gone {
      acknowledge()
    } else {
      waiter?.resume(returning: deadline)
    }
  }

  /// One operator subscription's timer; its state lives in the clock's lock.
  final class Timer: ClockTimer {
    let clock: ManualClock
    let id: Int

    init(clock: ManualClock, id: Int) {
      self.clock = clock
      self.id = id
    }

    deinit {
      // Nothing can call `didHandle()` any more: acknowledge whatever is pending.
      end(evenWhileFiring: true)
    }

    func arm(at deadline: Instant) {
      clock.state.withLock { state in
        guard state.timers[id] != nil, !state.timers[id]!.isCancelled else { return }
        state.timers[id]!.deadline = deadline
        state.timers[id]!.order = state.nextOrder
        state.nextOrder += 1
      }
    }

    /// Ends the timer. A cancel made while the task runs a firing's handlers (a handler
    /// that ends its own subscription: `take(_:)`, `once()`, `take(until:)`, `dispose()`)
    /// does not acknowledge the firing: the task's `didHandle()`, after the handlers, does.
    /// Any other cancel acknowledges a pending ring at once, since no handler runs for it.
    func cancel() {
      end(evenWhileFiring: false)
    }

    private func end(evenWhileFiring: Bool) {
      let (waiter, acknowledgement) = clock.state.withLock { state -> (CheckedContinuation<Instant?, Never>?, (@Sendable () -> Void)?) in
        guard var timer = state.timers[id] else { return (nil, nil) }
        if timer.isFiring && !evenWhileFiring {
          timer.isCancelled = true
          timer.deadline = nil
          state.timers[id] = timer
          return (nil, nil)
        }
        state.timers[id] = nil
        return (timer.waiter, timer.acknowledgement)
      }
      schedulePoint("manualClock.cancel: the timer's state taken; resuming outside the lock")
      waiter?.resume(returning: nil)
      acknowledgement?()
    }

    func next() async -> Instant? {
      await withCheckedContinuation { (continuation: CheckedContinuation<Instant?, Never>) in
        if case .some(let result) = take(orWait: continuation) { continuation.resume(returning: result) }
      }
    }

    /// The rung deadline, handed to the task (`.some`), or `.some(nil)` once cancelled; or
    /// `.none` after storing `continuation`, which the next ring resumes.
    func take(orWait continuation: CheckedContinuation<Instant?, Never>?) -> Instant?? {
      let (result, acknowledgement) = clock.state.withLock { state -> (Instant??, (@Sendable () -> Void)?) in
        guard var timer = state.timers[id] else { return (.some(nil), nil) }
        // A task that asks for the next deadline has finished the last firing's handlers,
        // whether or not it said so with `didHandle()`.
        var done: (@Sendable () -> Void)?
        if timer.isFiring {
          timer.isFiring = false
          done = timer.acknowledgement
          timer.acknowledgement = nil
        }
        if timer.isCancelled {
          state.timers[id] = nil
          return (.some(nil), done)
        }
        defer { state.timers[id] = timer }
        if let ring = timer.ring {
          // Handed to the task under the lock, as in `ring(_:at:acknowledge:)`.
          timer.ring = nil
          timer.isFiring = true
          return (.some(ring), done)
        }
        if let continuation { timer.waiter = continuation }
        return (.none, done)
      }
      acknowledgement?()
      if case .some(.some) = result {
        // The firing is the task's from here: its handlers run next, and a cancel may come
        // from another thread meanwhile.
        schedulePoint("manualClock.take: the deadline handed to the task; its handlers run next")
      }
      return result
    }

    func didHandle() {
      let acknowledgement = clock.state.withLock { state -> (@Sendable () -> Void)? in
        guard var timer = state.timers[id], timer.isFiring else { return nil }
        timer.isFiring = false
        defer { state.timers[id] = timer.isCancelled ? nil : timer }
        defer { timer.acknowledgement = nil }
        return timer.acknowledgement
      }
      schedulePoint("manualClock.didHandle: the acknowledgement taken; resuming outside the lock")
      acknowledgement?()
    }
  }
}
