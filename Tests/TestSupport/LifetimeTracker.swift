import Foundation

/// Counts live instances of ``Tracked`` so a test can assert that nothing it created
/// outlives it.
public final class LifetimeTracker: Sendable {
  private let live = Guarded(0)

  public init() {}

  /// How many objects made by this tracker are alive.
  public var liveCount: Int { live.value }

  public func make(onDeinit: (@Sendable () -> Void)? = nil) -> Tracked {
    Tracked(tracker: self, onDeinit: onDeinit)
  }

  fileprivate func adjust(_ delta: Int) {
    live.withLock { $0 += delta }
  }
}

/// An object whose life is counted by a ``LifetimeTracker``; optionally runs code in deinit.
public final class Tracked: Sendable {
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

  /// Uses the object, so that a closure captures it.
  public func touch() {}
}
