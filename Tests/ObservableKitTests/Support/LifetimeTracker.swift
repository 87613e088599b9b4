import Foundation

/// Counts live instances of ``Tracked`` so a test can assert that nothing it created
/// outlives it.
final class LifetimeTracker: @unchecked Sendable {
  // `live` is only touched under `lock`.
  private let lock = NSLock()
  private var live = 0

  var liveCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return live
  }

  func make(onDeinit: (@Sendable () -> Void)? = nil) -> Tracked {
    Tracked(tracker: self, onDeinit: onDeinit)
  }

  fileprivate func adjust(_ delta: Int) {
    lock.lock()
    live += delta
    lock.unlock()
  }
}

/// An object whose life is counted by a ``LifetimeTracker``; optionally runs code in deinit.
final class Tracked: Sendable {
  private let tracker: LifetimeTracker
  private let onDeinit: (@Sendable () -> Void)?

  fileprivate init(tracker: LifetimeTracker, onDeinit: (@Sendable () -> Void)?) {
    self.tracker = tracker
    self.onDeinit = onDeinit
    tracker.adjust(1)
  }

  deinit {
    onDeinit?()
    tracker.adjust(-1)
  }

  func touch() {}
}
