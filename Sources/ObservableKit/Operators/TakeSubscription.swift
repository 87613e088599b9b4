/// The count behind `take(_:)` in both families. It ends the upstream subscription before
/// the last value is delivered, so a handler that causes another notification does not
/// hear it. Thread-safe: values may come from several threads in the shared family.
final class TakeSubscription: Sendable {
  /// The subscription to return; ``fill(_:)`` hands it the upstream one.
  let slot = DisposableSlot()
  private let count: Int
  private let taken = Locked(0)

  init(_ count: Int) {
    self.count = count
    if count == 0 { slot.dispose() }
  }

  /// Whether this value is one of the first `count`; ends the subscription at the last.
  func admit() -> Bool {
    let index = taken.withLock { taken in
      defer { taken += 1 }
      return taken
    }
    guard index < count else { return false }
    if index == count - 1 { slot.dispose() }
    return true
  }
}

/// The subscription behind `take(until:)` in both families: the upstream subscription, the
/// one to the source that ends it, and whether it has ended. Thread-safe: the end may come
/// from another thread in the shared family.
final class TakeUntilSubscription: Disposable {
  let upstream = DisposableSlot()
  let trigger = DisposableSlot()
  private let ended = Locked(false)

  /// Whether a value may still be delivered.
  var admits: Bool { !ended.withLock { $0 } }

  /// Ends both subscriptions: the upstream one first, so no value of it begins after.
  func dispose() {
    ended.withLock { $0 = true }
    upstream.dispose()
    trigger.dispose()
  }

  var isDisposed: Bool { ended.withLock { $0 } }
}
