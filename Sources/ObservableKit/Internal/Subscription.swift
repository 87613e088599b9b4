/// The token `observe` returns: ends one registration in one storage.
@usableFromInline
final class Subscription<Value, State>: Disposable, DeferredReleaseDisposable {
  private let storage: ObserverStorage<Value, State>
  private let id: UInt64

  @usableFromInline
  init(storage: ObserverStorage<Value, State>, id: UInt64) {
    self.storage = storage
    self.id = id
  }

  @usableFromInline
  func dispose() {
    _ = stop()
  }

  @usableFromInline
  var isDisposed: Bool { !storage.contains(id) }

  @usableFromInline
  func stop() -> Any? {
    storage.remove(id)
  }
}

/// A disposable that can stop delivery first and release what it held later, so that a bag
/// stops all its subscriptions before any captured state is deinitialized.
@usableFromInline
protocol DeferredReleaseDisposable: Disposable {
  /// Stops delivery and returns what must be released once the caller is ready.
  func stop() -> Any?
}
