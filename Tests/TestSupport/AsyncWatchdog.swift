import Foundation

/// Runs `body` in a task of its own and returns its result, or `nil` if it has not
/// returned within `timeout` seconds: an async wait that hangs becomes a failed test, not a
/// hung run. (The hung task is left behind; the test that sees `nil` fails.)
public func finishing<Result: Sendable>(
  within timeout: TimeInterval,
  _ body: @escaping @Sendable () async -> Result
) async -> Result? {
  let once = Guarded<CheckedContinuation<Result?, Never>?>(nil)
  return await withCheckedContinuation { (continuation: CheckedContinuation<Result?, Never>) in
    once.value = continuation
    let finish: @Sendable (Result?) -> Void = { result in
      once.withLock { stored in
        stored?.resume(returning: result)
        stored = nil
      }
    }
    Task { finish(await body()) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { finish(nil) }
  }
}
