/// An ``ObservableThreadSafeClass`` whose observers can also register for keys of type
/// `TKey`.
///
/// Use it like ``KeyedObservableClass``. Subscriptions and passes, keyed or not, work from
/// any thread, with the linearizable guarantees of ``ObservableThreadSafeClass``; keyed
/// passes call the observers synchronously on the calling thread, in the order they
/// registered for the key, with no lock held. Keys are hashed and compared on the calling
/// threads, so use immutable value keys (see ``KeyedObservable``). To share a subclass across
/// threads in checked code, restate `@unchecked Sendable` on it.
open class KeyedObservableThreadSafeClass<TKey: Hashable>: ObservableThreadSafeClass, KeyedObservable {
  /// Creates an observable with no observers.
  public override init() {
    super.init()
  }
}
