/// The asynchronous deliveries under way, for ObservableKitTesting's `waitUntilDelivered`: a
/// debug-only ledger that the delivery paths whose handlers run later (an actor owner's
/// drain, an async handler's tasks) write to when they start work and when it has run.
///
/// In a release build nothing is counted: the call sites are under `#if DEBUG`, so the
/// delivery paths cost nothing more.
///
/// One entry stands for one run of work that a notification started on an idle delivery: an
/// actor owner's drain, or an async handler's chain of calls. It begins before the
/// notification returns (under the delivery's own lock or just after it, on the notifying
/// thread) and ends once the drain or chain has no more values to run, so every value
/// notified before a wait is covered by an entry in flight when the wait begins, or has
/// already run.
package enum DeliveriesInFlight {
  /// Whether deliveries are counted: only in a debug build of the library.
  package static var isCounting: Bool {
    #if DEBUG
    true
    #else
    false
    #endif
  }

  #if DEBUG
  private struct Waiter: Sendable {
    var remaining: Set<Int>
    let done: @Sendable () -> Void
  }

  private struct State: Sendable {
    var nextID = 0
    var inFlight: Set<Int> = []
    var nextWaiter = 0
    var waiters: [Int: Waiter] = [:]
  }

  private static let state = Locked(State())
  #endif

  /// Records that work has started; returns the entry to end with ``end(_:)``.
  package static func begin() -> Int {
    #if DEBUG
    state.withLock { state in
      defer { state.nextID &+= 1 }
      state.inFlight.insert(state.nextID)
      return state.nextID
    }
    #else
    0
    #endif
  }

  /// Records that the work of `entry` has run; wakes the waits it was the last one of.
  package static func end(_ entry: Int) {
    #if DEBUG
    let done = state.withLock { state -> [@Sendable () -> Void] in
      state.inFlight.remove(entry)
      if state.waiters.isEmpty { return [] }
      var done: [@Sendable () -> Void] = []
      for (id, var waiter) in state.waiters where waiter.remaining.contains(entry) {
        waiter.remaining.remove(entry)
        if waiter.remaining.isEmpty {
          state.waiters[id] = nil
          done.append(waiter.done)
        } else {
          state.waiters[id] = waiter
        }
      }
      return done
    }
    // Outside the lock: `done` resumes a continuation.
    for call in done { call() }
    #endif
  }

  /// Calls `done` once every entry in flight now has ended. Returns nil, having called
  /// `done`, when none is in flight; otherwise an id for ``cancelWait(_:)``.
  package static func whenDelivered(_ done: @escaping @Sendable () -> Void) -> Int? {
    #if DEBUG
    let id = state.withLock { state -> Int? in
      if state.inFlight.isEmpty { return nil }
      defer { state.nextWaiter &+= 1 }
      state.waiters[state.nextWaiter] = Waiter(remaining: state.inFlight, done: done)
      return state.nextWaiter
    }
    if id == nil { done() }
    return id
    #else
    done()
    return nil
    #endif
  }

  /// Forgets a wait (its timeout ran out); returns how many of its entries were still in
  /// flight, or nil if it had already been woken.
  package static func cancelWait(_ id: Int) -> Int? {
    #if DEBUG
    state.withLock { $0.waiters.removeValue(forKey: id)?.remaining.count }
    #else
    nil
    #endif
  }
}
