import Foundation

/// The life of one ``ObservableThread``: not started, executing, finished, plus the cancelled
/// flag.
///
/// This is thread control, not observer storage: it needs to block (in `sleep` and
/// `waitUntilFinished`), which the core's lock cannot, so it uses Foundation's
/// `NSCondition`, whose broadcasts wake the sleepers on cancel and the waiters on finish.
final class ThreadLifecycle: @unchecked Sendable {
  // `phase` and `isCancelled` are only touched with `condition` locked.
  private enum Phase { case idle, executing, finished }

  private let condition = NSCondition()
  private var phase = Phase.idle
  private var cancelled = false

  /// The key under which a running thread finds its lifecycle in its thread dictionary.
  private static let threadKey = "ObservableKit.ObservableThread.lifecycle"

  /// The lifecycle of the `ObservableThread` running on the calling thread, if any.
  static var current: ThreadLifecycle? {
    Thread.current.threadDictionary[threadKey] as? ThreadLifecycle
  }

  /// Moves from "not started" to "executing" and returns true, if nobody started before.
  /// Cancelled before: moves straight to "finished" and returns false.
  func claimStart() -> Bool {
    locked {
      guard phase == .idle else { return false }
      if cancelled {
        phase = .finished
        condition.broadcast()
        return false
      }
      phase = .executing
      return true
    }
  }

  /// Runs `main` as the body of the thread this lifecycle belongs to, then marks it finished.
  func run(_ main: () -> Void) {
    let dictionary = Thread.current.threadDictionary
    dictionary[Self.threadKey] = self
    main()
    dictionary.removeObject(forKey: Self.threadKey)
    locked {
      phase = .finished
      condition.broadcast()
    }
  }

  func cancel() {
    locked {
      cancelled = true
      condition.broadcast()
    }
  }

  var isExecuting: Bool { locked { phase == .executing && !cancelled } }
  var isCancelled: Bool { locked { cancelled } }
  var isFinished: Bool { locked { phase == .finished } }

  /// Blocks until `deadline`, or until the thread is cancelled, whichever comes first.
  func sleep(until deadline: Date) {
    locked {
      while !cancelled, condition.wait(until: deadline) {}
    }
  }

  /// Blocks until the thread has finished; returns at once if it never started, or when
  /// called from the thread itself.
  func waitUntilFinished() {
    if Self.current === self { return }
    locked {
      while phase == .executing { condition.wait() }
    }
  }

  private func locked<R>(_ body: () -> R) -> R {
    condition.lock()
    defer { condition.unlock() }
    return body()
  }
}
