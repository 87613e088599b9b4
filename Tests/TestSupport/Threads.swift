// Gated on Testing: TestSupport is a regular target, which a build of every target for a
// device (xcodebuild build) compiles without the testing frameworks' search paths; the
// test targets, which use these helpers, always have Testing.
#if canImport(Testing)
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

/// `race`, with what the threads share passed through a holder that is emptied once the race
/// returns, so that the test's objects die with the test.
///
/// A race's threads may still be exiting, holding their closure, when the test process ends.
/// An object such a closure kept alive that has a weak-reference side table (every hub that
/// has been observed, every sender a filter names) is then reported by LeakSanitizer, which
/// cannot follow the runtime's encoded pointer from an object to its side table.
public func raceSharing<Shared>(
  _ shared: Shared,
  threads: Int,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (Shared, Int) -> Void
) {
  let holder = Guarded<Shared?>(shared)
  race(threads: threads, sourceLocation: sourceLocation) { index in
    guard let shared = holder.value else { return }
    body(shared, index)
  }
  holder.value = nil
}

/// `withWatchdog`, with what the thread uses passed through a holder emptied once it returns;
/// see ``raceSharing(_:threads:sourceLocation:_:)``.
public func withWatchdogSharing<Shared>(
  _ shared: Shared,
  _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable (Shared) -> Void
) {
  let holder = Guarded<Shared?>(shared)
  withWatchdog(what, sourceLocation: sourceLocation) {
    guard let shared = holder.value else { return }
    body(shared)
  }
  holder.value = nil
}
#endif
