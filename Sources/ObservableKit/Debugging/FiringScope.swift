#if DEBUG
/// One firing of a timer whose clock waits for its handlers (`TimerDrivingClock`, as
/// ObservableKitTesting's `ManualClock`): the deliveries its handlers' calls enqueue for later,
/// which the firing waits for before it says the handlers ran (`ClockTimer.didHandle()`).
/// Debug builds only: release builds have neither the type nor any call of it.
///
/// `TimerLoop.run` runs each firing's handlers with the scope as ``current`` (a task-local),
/// then awaits ``close()``. A delivery that leaves a value for a job of another actor (an
/// actor-isolated shared `observe`, or a main-actor one reached off the main actor) reads
/// ``current`` after it queued the value and, if there is one, makes its mailbox owe the
/// scope an end (`DeliveryMailbox.oweEnclosingScope()`): the drain that delivers the value
/// ends the entry once it finds nothing more waiting, or once it finds the mailbox closed.
///
/// Not waited for: work a handler starts elsewhere (a task it spawns, a queue). A task
/// inherits the task-local, so a delivery such a task enqueues while the firing waits is
/// waited for too; one enqueued after ``close()`` is not (``begin()`` refuses it).
@usableFromInline
final class FiringScope: Sendable {
  @TaskLocal static var current: FiringScope?

  private struct State: Sendable {
    var entries = 0
    var isClosed = false
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let state = Locked(State())

  init() {}

  /// The scope of the firing whose handlers run in this task, if any. Out of line: the
  /// deliveries' inlinable paths call it, in debug builds only.
  @usableFromInline @inline(never)
  static func enclosing() -> FiringScope? {
    current
  }

  /// Records a delivery the firing waits for; false once the firing stopped waiting (the
  /// caller then owes nothing).
  @usableFromInline
  func begin() -> Bool {
    state.withLock { state in
      guard !state.isClosed else { return false }
      state.entries += 1
      return true
    }
  }

  /// Ends an entry ``begin()`` recorded: its delivery has run, or will never run.
  @usableFromInline
  func end() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.entries -= 1
      guard state.entries == 0, let waiter = state.waiter else { return nil }
      state.isClosed = true
      state.waiter = nil
      return waiter
    }
    waiter?.resume()
  }

  /// Returns once every entry has ended, and refuses new ones from then on.
  func close() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let done = state.withLock { state -> Bool in
        if state.entries == 0 {
          state.isClosed = true
          return true
        }
        state.waiter = continuation
        return false
      }
      if done { continuation.resume() }
    }
  }
}
#endif
