import Foundation
import Testing

/// Runs `body(threadIndex)` on `threads` real threads that start together (a barrier), and
/// waits for all of them. A run that does not finish within `timeout` fails the test
/// instead of hanging CI.
public func race(
  threads: Int,
  timeout: TimeInterval = 60,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (Int) -> Void
) {
  let ready = DispatchGroup()
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for index in 0..<threads {
    ready.enter()
    done.enter()
    let thread = Thread {
      ready.leave()
      start.wait()
      body(index)
      done.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  ready.wait()
  for _ in 0..<threads { start.signal() }
  if done.wait(timeout: .now() + timeout) == .timedOut {
    Issue.record("race did not finish within \(timeout)s: deadlock?", sourceLocation: sourceLocation)
  }
}

/// Runs `body` on another thread and fails the test if it does not return within `timeout`:
/// a deadlock becomes a failure with a message, never a hung run.
public func withWatchdog(
  _ what: String,
  timeout: TimeInterval = 10,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> Void
) {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  if done.wait(timeout: .now() + timeout) == .timedOut {
    Issue.record("deadlock: \(what) did not return within \(timeout)s", sourceLocation: sourceLocation)
  }
}

/// An identifier of the calling thread.
public func currentThreadID() -> UInt {
  #if canImport(Darwin)
  UInt(bitPattern: pthread_self())
  #else
  UInt(pthread_self())
  #endif
}

/// The shape of the stress matrix: 8 threads, each running this many mixed operations.
/// `OBSERVABLEKIT_STRESS_OPS` overrides the count (CI keeps the default).
public enum StressMatrix {
  public static let threads = 8
  public static let operationsPerThread =
    ProcessInfo.processInfo.environment["OBSERVABLEKIT_STRESS_OPS"].flatMap(Int.init) ?? 100_000
}
