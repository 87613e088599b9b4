import Foundation

import ObservableKit

/// Runs a closure once, when disposed.
final class CallbackDisposable: Disposable, @unchecked Sendable {
  // `action` is only touched under `lock`.
  private let lock = NSLock()
  private var action: (@Sendable () -> Void)?

  init(_ action: @escaping @Sendable () -> Void) { self.action = action }

  func dispose() {
    lock.lock()
    let action = self.action
    self.action = nil
    lock.unlock()
    action?()
  }

  var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return action == nil
  }
}
