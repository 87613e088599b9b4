/// Runs a closure once, on the first ``dispose()``, outside its lock.
final class ActionDisposable: Disposable {
  private let action: Locked<(@Sendable () -> Void)?>

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = Locked(action)
  }

  func dispose() {
    let action = action.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  var isDisposed: Bool { action.withLock { $0 == nil } }
}
