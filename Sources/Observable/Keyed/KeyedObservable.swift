/// An ``Observable`` whose observers can also register for keys, and be called only for
/// changes to those keys.
///
/// ```swift
/// protocol TestKeyedObservable: AnyObject {
///   func onValueChanged(key: String, oldValue: String, newValue: String)
/// }
///
/// class Repository: KeyedObservableClass<String> {
///   private var values = ["A": "Hello", "B": "Foo"]
///   func setValue(key: String, value: String) {
///     withKeyedObservers(key: key) { (key, observer: TestKeyedObservable) in
///       observer.onValueChanged(key: key, oldValue: values[key] ?? "", newValue: value)
///     }
///     values[key] = value
///   }
/// }
///
/// repository.addKeyedObserver(key: "A", observer)          // or addKeyedObserver("A", observer)
/// repository.addKeyedObserver(keys: ["A", "B"], observer)  // or addKeyedObserver(["A", "B"], observer)
/// ```
///
/// ## Keys
/// Keys have one type per observable, `TKey`, so they are type-checked: on a
/// `KeyedObservableClass<Int>`, the key `1` never matches `1.0`, which cannot even be passed.
/// For keys of mixed types use `KeyedObservableClass<AnyHashable>`; its keys compare as
/// `AnyHashable` does, so there `Int(1)` and `Double(1.0)` are the same key, and `"1"` is
/// another. There (and when `TKey` is itself an array) pass keys with the `key:` and `keys:`
/// labels: an array of keys is then also a valid single key.
///
/// Keys are hashed and compared on whichever thread calls, under the observable's lock: use
/// immutable value keys (`String`, `Int`, enums, structs of those) whose `Hashable`
/// implementation does not call back into the observable.
///
/// ## Keyed observers are observers
/// An observer registered for a key is also an observer of the object: `withObservers`
/// reaches it (once, however many keys it has). `removeObserver` ends all of its
/// subscriptions; `removeKeyedObserver` ends one key's, and the observer's own once its last
/// key goes, unless it was also added with `addObserver`.
///
/// ## Threads, order and re-entrancy
/// As for `withObservers` (see ``Observable``): keyed passes are synchronous on the calling
/// thread, call a key's observers in the order they registered for that key, and may be
/// nested or change subscriptions from inside a callback. Deallocated observers are pruned
/// from every key, and keys left without observers are dropped.
public protocol KeyedObservable<TKey>: Observable {
  /// The type of the keys observers register for.
  associatedtype TKey: Hashable

  /// Registers `observer`, held weakly, for `key`; does nothing if it already is.
  ///
  /// The observer also becomes an observer of the object (see ``KeyedObservable``), keeping
  /// its place if it already was. Safe from any thread and from inside a callback; first
  /// called by the next keyed pass for `key`.
  func addKeyedObserver<TObservationProtocol: AnyObject>(key: TKey, _ observer: TObservationProtocol)

  /// Registers each of `observers`, in array order, for `key`, as
  /// `addKeyedObserver(key:_:)` registers one (same threads and re-entrancy).
  func addKeyedObserver(key: TKey, _ observers: [AnyObject])

  /// Registers `observer` for each of `keys`, in array order.
  func addKeyedObserver<TObservationProtocol: AnyObject>(keys: [TKey], _ observer: TObservationProtocol)

  /// Registers each of `observers` for each of `keys`.
  func addKeyedObserver(keys: [TKey], _ observers: [AnyObject])

  /// Ends `observer`'s subscription for `key`; does nothing if it has none.
  ///
  /// Once this returns, no keyed pass for `key` starts a call to `observer`, including one in
  /// progress (a call another thread has already begun may still be running).
  /// If that was its last key and it was not added with `addObserver`, the observer is
  /// removed from the object altogether.
  func removeKeyedObserver<TObservationProtocol: AnyObject>(key: TKey, _ observer: TObservationProtocol)

  /// Ends the subscription for `key` of each of `observers`.
  func removeKeyedObserver(key: TKey, _ observers: [AnyObject])

  /// Ends `observer`'s subscription for each of `keys`.
  func removeKeyedObserver<TObservationProtocol: AnyObject>(keys: [TKey], _ observer: TObservationProtocol)

  /// Ends the subscription for each of `keys` of each of `observers`.
  func removeKeyedObserver(keys: [TKey], _ observers: [AnyObject])

  /// Calls `code` with `key` and each live observer registered for `key` that conforms to
  /// `TObservationProtocol`.
  ///
  /// Name the observer protocol in the closure: `{ (key, observer: MyObserver) in … }`.
  /// Synchronous on the calling thread, in the order the observers registered for `key`, with
  /// no lock held while `code` runs; re-entrant like `withObservers`.
  func withKeyedObservers<TObservationProtocol>(
    key: TKey,
    _ code: (_ key: TKey, _ observer: TObservationProtocol) -> Void
  )

  /// Calls `code` for each of `keys`, in array order, as `withKeyedObservers(key:_:)` does.
  ///
  /// A key listed twice is visited once. An observer registered for several of the keys is
  /// called once per key, with that key.
  func withKeyedObservers<TObservationProtocol>(
    keys: [TKey],
    _ code: (_ key: TKey, _ observer: TObservationProtocol) -> Void
  )
}

extension KeyedObservable {
  /// Registers each of `observers`, in array order, for `key`.
  public func addKeyedObserver(key: TKey, _ observers: [AnyObject]) {
    for observer in observers { addKeyedObserver(key: key, observer) }
  }

  /// Registers `observer` for each of `keys`, in array order.
  public func addKeyedObserver<TObservationProtocol: AnyObject>(keys: [TKey], _ observer: TObservationProtocol) {
    for key in keys { addKeyedObserver(key: key, observer) }
  }

  /// Registers each of `observers` for each of `keys`, key by key.
  public func addKeyedObserver(keys: [TKey], _ observers: [AnyObject]) {
    for key in keys { addKeyedObserver(key: key, observers) }
  }

  /// Ends the subscription for `key` of each of `observers`.
  public func removeKeyedObserver(key: TKey, _ observers: [AnyObject]) {
    for observer in observers { removeKeyedObserver(key: key, observer) }
  }

  /// Ends `observer`'s subscription for each of `keys`.
  public func removeKeyedObserver<TObservationProtocol: AnyObject>(keys: [TKey], _ observer: TObservationProtocol) {
    for key in keys { removeKeyedObserver(key: key, observer) }
  }

  /// Ends the subscription for each of `keys` of each of `observers`.
  public func removeKeyedObserver(keys: [TKey], _ observers: [AnyObject]) {
    for key in keys { removeKeyedObserver(key: key, observers) }
  }

  /// Calls `code` for each distinct key of `keys`, in array order, as
  /// `withKeyedObservers(key:_:)` does.
  public func withKeyedObservers<TObservationProtocol>(
    keys: [TKey],
    _ code: (_ key: TKey, _ observer: TObservationProtocol) -> Void
  ) {
    var visited = Set<TKey>()
    for key in keys where visited.insert(key).inserted {
      withKeyedObservers(key: key, code)
    }
  }

  // MARK: Unlabelled spellings

  /// Registers `observer` for `key`: the same as `addKeyedObserver(key:_:)`.
  public func addKeyedObserver<TObservationProtocol: AnyObject>(_ key: TKey, _ observer: TObservationProtocol) {
    addKeyedObserver(key: key, observer)
  }

  /// Registers each of `observers` for `key`: the same as `addKeyedObserver(key:_:)`.
  public func addKeyedObserver(_ key: TKey, _ observers: [AnyObject]) {
    addKeyedObserver(key: key, observers)
  }

  /// Registers `observer` for each of `keys`: the same as `addKeyedObserver(keys:_:)`.
  public func addKeyedObserver<TObservationProtocol: AnyObject>(_ keys: [TKey], _ observer: TObservationProtocol) {
    addKeyedObserver(keys: keys, observer)
  }

  /// Registers each of `observers` for each of `keys`: the same as `addKeyedObserver(keys:_:)`.
  public func addKeyedObserver(_ keys: [TKey], _ observers: [AnyObject]) {
    addKeyedObserver(keys: keys, observers)
  }

  /// Ends `observer`'s subscription for `key`: the same as `removeKeyedObserver(key:_:)`.
  public func removeKeyedObserver<TObservationProtocol: AnyObject>(_ key: TKey, _ observer: TObservationProtocol) {
    removeKeyedObserver(key: key, observer)
  }

  /// Ends the subscription for `key` of each of `observers`: the same as
  /// `removeKeyedObserver(key:_:)`.
  public func removeKeyedObserver(_ key: TKey, _ observers: [AnyObject]) {
    removeKeyedObserver(key: key, observers)
  }

  /// Ends `observer`'s subscription for each of `keys`: the same as
  /// `removeKeyedObserver(keys:_:)`.
  public func removeKeyedObserver<TObservationProtocol: AnyObject>(_ keys: [TKey], _ observer: TObservationProtocol) {
    removeKeyedObserver(keys: keys, observer)
  }

  /// Ends the subscription for each of `keys` of each of `observers`: the same as
  /// `removeKeyedObserver(keys:_:)`.
  public func removeKeyedObserver(_ keys: [TKey], _ observers: [AnyObject]) {
    removeKeyedObserver(keys: keys, observers)
  }

  // MARK: Closures that do not name the observer protocol

  /// A keyed pass whose closure does not name the observer protocol: it visits every
  /// observer registered for `key`.
  ///
  /// Exists so that `{ key, observer in print(observer) }` draws a compiler warning instead of
  /// silently matching every observer, as it did in Flowduino's Observable. Name the protocol,
  /// `{ (key, observer: MyObserver) in … }`, or write `(key, observer: AnyObject)`.
  @available(*, deprecated, message: "name the observer protocol: withKeyedObservers(key: k) { (key, observer: MyObserver) in ... }")
  public func withKeyedObservers(key: TKey, _ code: (_ key: TKey, _ observer: Any) -> Void) {
    withKeyedObservers(key: key) { (key, observer: AnyObject) in code(key, observer) }
  }

  /// A keyed pass over several keys whose closure does not name the observer protocol: it
  /// visits every observer registered for each key.
  ///
  /// Exists so that an unannotated closure draws a compiler warning; see
  /// `withKeyedObservers(key:_:)`.
  @available(*, deprecated, message: "name the observer protocol: withKeyedObservers(keys: ks) { (key, observer: MyObserver) in ... }")
  public func withKeyedObservers(keys: [TKey], _ code: (_ key: TKey, _ observer: Any) -> Void) {
    withKeyedObservers(keys: keys) { (key, observer: AnyObject) in code(key, observer) }
  }
}

// The keyed classes of this module, and any subclass of `ObservableClass` that adopts
// `KeyedObservable`, share this one implementation on the class's observer list.
extension KeyedObservable where Self: ObservableClass {
  /// The class's list: `ObservableClass.init` made it keyed by this `TKey`, the one key type
  /// of the object's `KeyedObservable` conformance.
  @usableFromInline
  var keyedObservers: KeyedWeakObserverList<AnyObject, TKey> {
    unsafeDowncast(observers, to: KeyedWeakObserverList<AnyObject, TKey>.self)
  }

  /// Registers `observer`, held weakly, for `key`; does nothing if it already is.
  ///
  /// The observer also becomes an observer of the object (`withObservers(_:)`
  /// reaches it), keeping its place if it already was. Safe from any thread and from inside a
  /// callback; first called by the next keyed pass for `key`.
  public func addKeyedObserver<TObservationProtocol: AnyObject>(key: TKey, _ observer: TObservationProtocol) {
    keyedObservers.add(observer, for: key)
  }

  /// Ends `observer`'s subscription for `key`; does nothing if it has none.
  ///
  /// Once this returns, no keyed pass for `key` starts a call to `observer`, including one in
  /// progress (a call another thread has already begun may still be running).
  /// If that was its last key and it was not added with `addObserver`, the observer is
  /// removed from the object altogether.
  public func removeKeyedObserver<TObservationProtocol: AnyObject>(key: TKey, _ observer: TObservationProtocol) {
    keyedObservers.remove(observer, for: key)
  }

  /// Calls `code` with `key` and each live observer registered for `key` that conforms to
  /// `TObservationProtocol`.
  ///
  /// - Runs synchronously on the calling thread, in the order the observers registered for
  ///   `key`, and returns after the last call; no lock is held while `code` runs.
  /// - Re-entrant like `withObservers(_:)`: `code` may change subscriptions
  ///   and start nested passes, which run to completion at once; observers registered during
  ///   the pass are not called by it, observers removed before their turn are not called.
  @inlinable
  public func withKeyedObservers<TObservationProtocol>(
    key: TKey,
    _ code: (_ key: TKey, _ observer: TObservationProtocol) -> Void
  ) {
    keyedObservers.forEach(for: key) { object in
      if let observer = object as? TObservationProtocol, !mustCallOnMainActor(object) {
        code(key, observer)
      } else {
        callIfIsolatedToMainActor(object) { code(key, $0) }
      }
    }
  }
}
