/// A disposable for a subscription whose upstream token arrives after the subscription can
/// already need ending (a handler may ask to stop during `observe`, as in `take(1)` on a
/// property's replay).
///
/// Disposing the slot disposes the token, now or as soon as it arrives. The token is
/// disposed outside the lock.
final class DisposableSlot: Disposable {
  private struct State {
    var token: (any Disposable)?
    var isDisposed = false
  }

  private let state = Locked(State())

  /// Hands the upstream token to the slot; disposes it at once if the slot was disposed.
  func fill(_ token: any Disposable) {
    let disposeNow = state.withLock { state in
      if state.isDisposed { return true }
      state.token = token
      return false
    }
    if disposeNow { token.dispose() }
  }

  func dispose() {
    let token = state.withLock { state in
      state.isDisposed = true
      defer { state.token = nil }
      return state.token
    }
    token?.dispose()
  }

  /// Disposed by ``dispose()``, or ended upstream: a source that deinitialized, or a hub
  /// that was gone when the slot was filled, ends the token without disposing the slot.
  /// The token is asked outside the lock: it may take a lock of its own.
  var isDisposed: Bool {
    let (isDisposed, token) = state.withLock { ($0.isDisposed, $0.token) }
    return isDisposed || token?.isDisposed == true
  }
}

/// Disposes several disposables together, in order.
final class CompositeDisposable: Disposable {
  private let parts: [any Disposable]

  init(_ parts: [any Disposable]) {
    self.parts = parts
  }

  func dispose() {
    for part in parts { part.dispose() }
  }

  var isDisposed: Bool { parts.allSatisfy(\.isDisposed) }
}

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
