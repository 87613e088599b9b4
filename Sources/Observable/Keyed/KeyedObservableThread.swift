/// An ``ObservableThread`` whose observers can also register for keys of type `TKey`.
///
/// Keyed passes made from ``ObservableThread/main()`` call their observers on this thread,
/// synchronously, in the order they registered for the key. Subscriptions may change from
/// any thread meanwhile; see ``KeyedObservable`` and ``ObservableThread``.
open class KeyedObservableThread<TKey: Hashable>: ObservableThread, KeyedObservable {
  /// Creates a thread that has not started.
  public override init() {
    super.init()
  }
}
