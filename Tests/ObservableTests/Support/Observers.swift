import TestSupport
import Observable

/// The observer protocol most behavioural tests notify.
protocol Ping: AnyObject {
  func ping(_ tag: String)
}

/// A second, unrelated observer protocol.
protocol Pong: AnyObject {
  func pong()
}

/// Appends "`name`" (or "`tag` `name`") to a shared log each time it is pinged or ponged.
final class Recorder: Ping, Pong, @unchecked Sendable {
  let name: String
  let log: Guarded<[String]>
  /// Runs inside `ping`, after logging; lets a test act from inside a callback.
  var onPing: ((String) -> Void)?

  init(_ name: String, log: Guarded<[String]>) {
    self.name = name
    self.log = log
  }

  func ping(_ tag: String) {
    log.withLock { $0.append(tag.isEmpty ? name : "\(tag) \(name)") }
    onPing?(tag)
  }

  func pong() {
    log.withLock { $0.append("pong \(name)") }
  }
}

/// Conforms to `Ping` only.
final class PingOnly: Ping {
  var pings = 0
  func ping(_ tag: String) { pings += 1 }
}

/// Counts its calls; safe to call from several threads at once.
final class Counter: Ping, @unchecked Sendable {
  private let calls = Guarded(0)
  var count: Int { calls.value }
  func ping(_ tag: String) { calls.withLock { $0 += 1 } }
}

/// The names the observers of a pass logged, in order.
func names(of log: Guarded<[String]>) -> [String] {
  log.withLock { log in
    defer { log = [] }
    return log
  }
}
