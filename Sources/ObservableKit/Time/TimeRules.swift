/// What one time operator decides, free of threads and clocks: what to deliver when a value
/// arrives, what when the armed deadline passes, and which deadline to arm next.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
protocol TimeRule<Value, Instant> {
  associatedtype Value
  associatedtype Instant: InstantProtocol

  /// A value arrived at `now`: the value to deliver at once, and a deadline to arm.
  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?)

  /// The armed `deadline` passed: the values to deliver, in order, and the next deadline.
  @inlinable
  mutating func fire(at deadline: Instant) -> (deliver: [Value], arm: Instant?)
}

/// `debounce`: each value replaces the waiting one and moves the deadline to its arrival
/// plus the duration; the waiting value goes when the deadline passes.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
struct DebounceRule<Value, Instant: InstantProtocol>: TimeRule {
  @usableFromInline let duration: Instant.Duration
  @usableFromInline var waiting: Value?

  @inlinable
  init(duration: Instant.Duration) {
    self.duration = duration
  }

  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?) {
    waiting = value
    return (nil, now.advanced(by: duration))
  }

  @inlinable
  mutating func fire(at _: Instant) -> (deliver: [Value], arm: Instant?) {
    guard let value = waiting else { return ([], nil) }
    waiting = nil
    return ([value], nil)
  }
}

/// `throttle`: a value that comes when no interval is open goes at once and opens one; the
/// values of an open interval wait (the latest, or the first), and the one waiting at its
/// end goes then and opens the next interval, from that end. An interval that ends with
/// nothing waiting closes.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@usableFromInline
struct ThrottleRule<Value, Instant: InstantProtocol>: TimeRule {
  @usableFromInline let interval: Instant.Duration
  @usableFromInline let latest: Bool
  @usableFromInline var isOpen = false
  @usableFromInline var waiting: Value?

  @inlinable
  init(interval: Instant.Duration, latest: Bool) {
    self.interval = interval
    self.latest = latest
  }

  @inlinable
  mutating func arrive(_ value: Value, at now: Instant) -> (deliver: Value?, arm: Instant?) {
    guard isOpen else {
      isOpen = true
      return (value, now.advanced(by: interval))
    }
    if latest || waiting == nil { waiting = value }
    return (nil, nil)
  }

  @inlinable
  mutating func fire(at deadline: Instant) -> (deliver: [Value], arm: Instant?) {
    guard let value = waiting else {
      isOpen = false
      return ([], nil)
    }
    waiting = nil
    return ([value], deadline.advanced(by: interval))
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
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension DebounceRule: Sendable where Value: Sendable {}
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension ThrottleRule: Sendable where Value: Sendable {}
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension DelayRule: Sendable where Value: Sendable {}
