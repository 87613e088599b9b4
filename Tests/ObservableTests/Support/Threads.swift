import Foundation

/// Holds back a fixed number of threads until all of them have arrived, then releases them
/// together, so that their work overlaps as much as possible. No sleeping involved.
final class Barrier: @unchecked Sendable {
  // `waiting` is only touched with `condition` locked.
  private let condition = NSCondition()
  private var waiting: Int

  init(parties: Int) {
    waiting = parties
  }

  func arriveAndWait() {
    condition.lock()
    defer { condition.unlock() }
    waiting -= 1
    if waiting == 0 {
      condition.broadcast()
    } else {
      while waiting > 0 { condition.wait() }
    }
  }
}

/// Runs `body(0)`, …, `body(count - 1)` on `count` new threads that start together behind a
/// barrier, and returns when all of them have finished.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (_ index: Int) -> Void) {
  let barrier = Barrier(parties: count)
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    Thread {
      barrier.arriveAndWait()
      body(index)
      group.leave()
    }.start()
  }
  group.wait()
}

/// A value guarded by a lock, for state that observers on several threads share with the test.
final class Guarded<Value>: @unchecked Sendable {
  // `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }

  var current: Value { withLock { $0 } }
}
