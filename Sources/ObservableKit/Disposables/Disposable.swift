/// A handle that ends something, usually one subscription, when you dispose it.
///
/// ``ObservableEvent/observe(_:)`` and ``Property/observe(_:)`` return a `Disposable`.
/// Keep it and call ``dispose()`` when you no longer want to hear from the source, or add
/// it to a ``DisposeBag`` with ``disposed(by:)`` so that it ends with the bag.
///
/// Dropping a disposable without disposing it does **not** end the subscription: the
/// subscription lives as long as its source. That is why `observe` is not
/// `@discardableResult`; the compiler warns when a result is ignored by accident.
///
/// Disposables are `Sendable`: dispose from any thread. Once ``dispose()`` returns, the
/// handler it ended is not called again by any notification that begins after that, and
/// not by a pass already in progress on the disposing thread.
public protocol Disposable: Sendable {
  /// Ends what this disposable stands for.
  ///
  /// Idempotent and thread-safe: the first call ends it, later calls (from any thread) do
  /// nothing. It never calls the ended handler, and releases the handler after releasing
  /// the library's locks, so a handler's captured state may deinitialize on this thread.
  func dispose()

  /// Whether ``dispose()`` has been called, or the source has gone away.
  var isDisposed: Bool { get }
}

extension Disposable {
  /// Adds this disposable to `bag`, so that it is disposed with the bag.
  ///
  /// The spelling of ObservableEvent 2.0; the same as ``disposed(by:)``. If the bag was
  /// disposed already, this disposable is disposed at once.
  public func disposeWith(_ bag: DisposeBag) {
    bag.addDisposable(self)
  }

  /// Adds this disposable to `bag`, so that it is disposed with the bag.
  ///
  /// The spelling RxSwift users know; the same as ``disposeWith(_:)``. If the bag was
  /// disposed already, this disposable is disposed at once.
  public func disposed(by bag: DisposeBag) {
    bag.addDisposable(self)
  }
}
