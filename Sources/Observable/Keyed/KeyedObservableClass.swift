/// An ``ObservableClass`` whose observers can also register for keys of type `TKey`.
///
/// ```swift
/// class TestKeyedObservableClass: KeyedObservableClass<String> {
///   private var keyValues = ["A": "Hello", "B": "Foo", "C": "Ping"]
///
///   func setValue(key: String, value: String) {
///     withKeyedObservers(key: key) { (key, observer: TestKeyedObservable) in
///       observer.onValueChanged(key: key, oldValue: keyValues[key]!, newValue: value)
///     }
///     keyValues[key] = value
///   }
/// }
/// ```
///
/// Subscription, passes, threads, order and re-entrancy are described by
/// ``KeyedObservable`` and ``ObservableClass``: keyed passes are synchronous on the calling
/// thread, in the order observers registered for the key; keyed observers are also reached by
/// `withObservers`. For keys of mixed types use `KeyedObservableClass<AnyHashable>`.
open class KeyedObservableClass<TKey: Hashable>: ObservableClass, KeyedObservable {
  /// Creates an observable with no observers.
  public override init() {
    super.init()
  }
}
