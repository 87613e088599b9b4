/// What one time operator decides, free of threads and clocks: what to deliver when a value
/// arrives, what when a deadline passes, and which deadline to arm next.
///
/// A rule keeps its own deadlines, and decides from them alone: a firing for `deadline`
/// delivers only the values whose time had come by `deadline`, whatever the timer last held.
/// This is the check after the hop: the timer claims a deadline on the clock's side, its task
/// then waits for the operator's actor, and values that arrive in that gap reach the rule
/// first. Such a value was timed by the clock's `now` at its arrival, which is at or after
/// the claimed deadline, so the rule first settles what was due by that `now` (it stays due
/// and goes at the firing, in order) and only then takes the new value (see the Contracts
/// article, *Time operators*).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
protocol TimeRule<Value, Instant> {
  associatedtype Value
  associatedtype Instant: InstantProtocol

  /// A value arrived at `now`: the value to deliver at once, and a deadline to arm.
  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?)

  /// The armed `deadline` passed: the values due by then, in order, and the next deadline
  /// the rule needs (armed again even when the timer already holds it: the loop's flag says
  /// whether anything is armed, and it was cleared when the timer returned `deadline`).
  @inlinable
  mutating func fire(at deadline: Instant) -> (deliver: [Value], arm: Instant?)

  /// Takes every value the rule holds, so that disposing releases them; the rule then holds
  /// nothing and arms nothing.
  @inlinable
  mutating func removeAll() -> [Value]
}

/// Values whose time has come but whose firing has not run yet (it waits for the operator's
/// actor), in order, with the earliest of their times: the deadline to arm while any wait.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
struct DueValues<Value, Instant: InstantProtocol> {
  @usableFromInline var values: [Value] = []
  @usableFromInline var since: Instant?

  @inlinable
  init() {}

  @inlinable
  mutating func append(_ value: Value, dueAt time: Instant) {
    values.append(value)
    if since == nil { since = time }
  }

  @inlinable
  mutating func take() -> [Value] {
    defer {
      values = []
      since = nil
    }
    return values
  }
}

/// `debounce`: each value replaces the waiting one and moves the deadline to its arrival
/// plus the duration; the waiting value goes when the deadline passes. A value that arrives
/// at or after the waiting value's deadline does not replace it: that value's time had come,
/// and it goes first.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
struct DebounceRule<Value, Instant: InstantProtocol>: TimeRule {
  @usableFromInline let duration: Instant.Duration
  @usableFromInline var waiting: Value?
  /// The waiting value's deadline, meaningful while a value waits. Not optional: an
  /// optional of a clock's instant (a resilient type) costs witness calls on every arrival.
  @usableFromInline var deadline: Instant
  @usableFromInline var due = DueValues<Value, Instant>()

  @inlinable
  init(duration: Instant.Duration, start: Instant) {
    self.duration = duration
    deadline = start
  }

  /// Moves the waiting value to `due` when its deadline is at or before `now`.
  @inlinable
  mutating func settle(by now: Instant) {
    guard waiting != nil, deadline <= now, let value = waiting else { return }
    waiting = nil
    due.append(value, dueAt: deadline)
  }

  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?) {
    settle(by: now)
    deadline = now.advanced(by: duration)
    waiting = value
    return (nil, due.values.isEmpty ? deadline : due.since)
  }

  @inlinable
  mutating func fire(at deadline: Instant) -> (deliver: [Value], arm: Instant?) {
    settle(by: deadline)
    return (due.take(), waiting == nil ? nil : self.deadline)
  }

  @inlinable
  mutating func removeAll() -> [Value] {
    var values = due.take()
    if let value = waiting { values.append(value) }
    waiting = nil
    return values
  }
}

/// `throttle`: a value that comes when no interval is open goes at once and opens one; the
/// values of an open interval wait (the latest, or the first), and the one waiting at its
/// end goes then and opens the next interval, from that end. An interval that ends with
/// nothing waiting closes.
///
/// A value that comes at or after the open interval's end belongs to what follows that end,
/// not to the interval: the end is settled first (the waiting value becomes due and opens
/// the next interval, or the interval closes).
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
struct ThrottleRule<Value, Instant: InstantProtocol>: TimeRule {
  @usableFromInline let interval: Instant.Duration
  @usableFromInline let latest: Bool
  @usableFromInline var isOpen = false
  /// The open interval's end, meaningful while `isOpen` (not optional: see `DebounceRule`).
  @usableFromInline var end: Instant
  @usableFromInline var waiting: Value?
  @usableFromInline var due = DueValues<Value, Instant>()

  @inlinable
  init(interval: Instant.Duration, latest: Bool, start: Instant) {
    self.interval = interval
    self.latest = latest
    end = start
  }

  /// Ends every interval whose end is at or before `now`.
  @inlinable
  mutating func settle(by now: Instant) {
    while isOpen, end <= now {
      if let value = waiting {
        waiting = nil
        due.append(value, dueAt: end)
        end = end.advanced(by: interval)
      } else {
        isOpen = false
      }
    }
  }

  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?) {
    settle(by: now)
    guard isOpen else {
      isOpen = true
      end = now.advanced(by: interval)
      // Values whose time came earlier still wait for their firing: this one goes after
      // them, at that firing, and its interval is counted from now.
      if !due.values.isEmpty {
        due.append(value, dueAt: now)
        return (nil, due.since)
      }
      return (value, end)
    }
    if latest || waiting == nil { waiting = value }
    return (nil, due.values.isEmpty ? nil : due.since)
  }

  @inlinable
  mutating func fire(at deadline: Instant) -> (deliver: [Value], arm: Instant?) {
    settle(by: deadline)
    return (due.take(), isOpen ? end : nil)
  }

  @inlinable
  mutating func removeAll() -> [Value] {
    var values = due.take()
    if let value = waiting { values.append(value) }
    waiting = nil
    isOpen = false
    return values
  }
}

/// `delay`: each value goes at its arrival plus the duration, in arrival order.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
struct DelayRule<Value, Instant: InstantProtocol>: TimeRule {
  @usableFromInline let duration: Instant.Duration
  @usableFromInline var queue: [(deadline: Instant, value: Value)] = []
  @usableFromInline var head = 0

  @inlinable
  init(duration: Instant.Duration) {
    self.duration = duration
  }

  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?) {
    let deadline = now.advanced(by: duration)
    let wasEmpty = head == queue.count
    queue.append((deadline, value))
    return (nil, wasEmpty ? deadline : nil)
  }

  @inlinable
  mutating func fire(at deadline: Instant) -> (deliver: [Value], arm: Instant?) {
    var due: [Value] = []
    while head < queue.count, queue[head].deadline <= deadline {
      due.append(queue[head].value)
      head += 1
    }
    if head == queue.count {
      queue.removeAll(keepingCapacity: true)
      head = 0
      return (due, nil)
    }
    return (due, queue[head].deadline)
  }

  @inlinable
  mutating func removeAll() -> [Value] {
    defer {
      queue = []
      head = 0
    }
    return queue[head...].map(\.value)
  }
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension DueValues: Sendable where Value: Sendable {}
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension DebounceRule: Sendable where Value: Sendable {}
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension ThrottleRule: Sendable where Value: Sendable {}
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension DelayRule: Sendable where Value: Sendable {}
