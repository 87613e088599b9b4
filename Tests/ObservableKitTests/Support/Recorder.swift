import Foundation

/// A thread-safe log of what handlers received, in arrival order.
final class Recorder<Value: Sendable>: @unchecked Sendable {
  // `items` is only touched under `lock`.
  private let lock = NSLock()
  private var items: [Value] = []

  func record(_ value: Value) {
    lock.lock()
    items.append(value)
    lock.unlock()
  }

  var values: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return items
  }

  var count: Int { values.count }

  /// A handler that records into this recorder.
  var handler: @Sendable (Value) -> Void { { [self] in record($0) } }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
  // `count` is only touched under `lock`.
  private let lock = NSLock()
  private var count = 0

  func increment(by amount: Int = 1) {
    lock.lock()
    count += amount
    lock.unlock()
  }

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
}

/// A value that can be set once from a handler and read by the test.
final class Box<Value: Sendable>: @unchecked Sendable {
  // `stored` is only touched under `lock`.
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    get { lock.lock(); defer { lock.unlock() }; return stored }
    set { lock.lock(); stored = newValue; lock.unlock() }
  }
}
