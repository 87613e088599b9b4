import Foundation

/// A value guarded by a lock, shared between handlers on several threads and the test.
public final class Guarded<Value>: @unchecked Sendable {
  // `stored` is only touched under `lock`.
  private let lock = NSLock()
  private var stored: Value

  public init(_ value: Value) {
    stored = value
  }

  /// Runs `body` with the value, under the lock.
  public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    lock.lock()
    defer { lock.unlock() }
    return try body(&stored)
  }

  /// The value; reading and writing each take the lock.
  public var value: Value {
    get { withLock { $0 } }
    set { withLock { $0 = newValue } }
  }
}

/// A thread-safe log of what handlers received, in arrival order.
public final class ValueLog<Value: Sendable>: Sendable {
  private let items = Guarded<[Value]>([])

  public init() {}

  public func record(_ value: Value) {
    items.withLock { $0.append(value) }
  }

  public var values: [Value] { items.value }

  public var count: Int { items.withLock { $0.count } }

  /// A handler that records into this log.
  public var handler: @Sendable (Value) -> Void { { [self] in record($0) } }
}

/// A thread-safe counter.
public final class Tally: Sendable {
  private let count = Guarded(0)

  public init() {}

  public func increment(by amount: Int = 1) {
    count.withLock { $0 += amount }
  }

  public var value: Int { count.value }
}
