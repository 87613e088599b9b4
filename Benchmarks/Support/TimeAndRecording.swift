// Scenario 12's and 13's hand-written peers: the debouncer an app writes around a closure
// array, and a recorder that appends to a locked array.

/// A hand-written debouncer: each value replaces the waiting one and moves the deadline
/// (`ContinuousClock.now` plus the duration) under a mutex; one task, started at the first
/// value, sleeps until the deadline and sleeps again while it moved. What the issue calls
/// "the closure array that calls through a hand-written timer", without ObservableKit's
/// generic clock, its actor hop or its disposal.
public final class HandDebouncer<Value: Sendable>: @unchecked Sendable {
  // `lock` guards every var below.
  @usableFromInline let lock = PthreadLock()
  @usableFromInline var waiting: Value?
  @usableFromInline var deadline: ContinuousClock.Instant?
  @usableFromInline var task: Task<Void, Never>?
  @usableFromInline let duration: Duration
  @usableFromInline let handler: @Sendable (Value) -> Void

  public init(duration: Duration, handler: @escaping @Sendable (Value) -> Void) {
    self.duration = duration
    self.handler = handler
  }

  deinit {
    lock.destroy()
  }

  @inlinable
  public func push(_ value: Value) {
    let now = ContinuousClock.now
    lock.withLock {
      waiting = value
      deadline = now.advanced(by: duration)
      if task == nil { task = Task { await self.run() } }
    }
  }

  public func cancel() {
    let task = lock.withLock { () -> Task<Void, Never>? in
      defer { self.task = nil }
      return self.task
    }
    task?.cancel()
  }

  @usableFromInline
  func run() async {
    while !Task.isCancelled {
      guard let target = lock.withLock({ deadline }) else { return }
      try? await ContinuousClock().sleep(until: target, tolerance: nil)
      let due = lock.withLock { () -> Value? in
        guard let deadline, deadline <= target else { return nil }
        self.deadline = nil
        defer { waiting = nil }
        return waiting
      }
      if let due { handler(due) }
      if lock.withLock({ deadline == nil }) {
        lock.withLock { task = nil }
        return
      }
    }
  }
}

/// A hand-written recorder: a closure array's handler appends to a locked array.
public final class HandRecorder<Value>: @unchecked Sendable {
  // `lock` guards `values`.
  @usableFromInline let lock = PthreadLock()
  @usableFromInline var values: [Value] = []

  public init() {}

  deinit {
    lock.destroy()
  }

  @inlinable
  public func append(_ value: Value) {
    lock.withLock { values.append(value) }
  }

  public var count: Int { lock.withLock { values.count } }
}
