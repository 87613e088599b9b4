import ObservableKit

// How the classes of this module hold their observers: one public list of ObservableKit
// per object. A keyed class holds a `KeyedWeakObserverList<AnyObject, Key>`, with `Key` its
// `TKey`; a class that is not keyed holds a plain `WeakObserverList<AnyObject>`, so that each
// `addObserver` writes one subscription (a keyed list writes two: the member and the keyless
// subscription).
//
// - `addObserver` is the list's keyless `add`; a keyed add is `add(_:for:)`. The list keeps
//   each observer's first place among its members, so adding again, plainly or for a key,
//   never moves it.
// - `withObservers` visits the members (`forEachInAnyList`; a plain list's `forEach`): every
//   observer added plainly or for any key, once, in the order it first joined.
//   `withKeyedObservers` visits one key.
// - `removeObserver` is `removeFromAllLists` (a plain list's `remove`); `removeKeyedObserver` ends one key's
//   subscription, and the list drops the member with its last subscription, so an observer
//   never added plainly leaves the plain visits with its last key.
// - Every change is one critical section of the list, so changes are linearizable and no
//   compound update can be seen half done. The list holds no lock while observers run,
//   passes are re-entrant, and a pass that meets a deallocated observer prunes it from
//   every key.

/// What the base class needs of its list, whatever its key type.
@usableFromInline
protocol ObserverMembers: AnyObject {
  func add(_ observer: AnyObject)
  func removeFromAllLists(_ observer: AnyObject)
  func forEachInAnyList(_ body: (AnyObject) throws -> Void) rethrows
}

extension KeyedWeakObserverList: ObserverMembers where Observer == AnyObject {}

extension WeakObserverList: ObserverMembers where Observer == AnyObject {
  /// A plain list has one list to leave.
  @usableFromInline
  func removeFromAllLists(_ observer: AnyObject) {
    remove(observer)
  }

  /// A plain list's members are its observers.
  @usableFromInline
  func forEachInAnyList(_ body: (AnyObject) throws -> Void) rethrows {
    try forEach(body)
  }
}

/// The list for an object of type `type`: keyed by its `TKey` if it adopts
/// ``KeyedObservable``, a plain list otherwise.
func makeObserverList(for type: AnyObject.Type) -> any ObserverMembers {
  guard let keyed = type as? any KeyedObservable.Type else {
    return WeakObserverList<AnyObject>()
  }
  return makeKeyedObserverList(for: keyed)
}

private func makeKeyedObserverList<T: KeyedObservable>(for _: T.Type) -> any ObserverMembers {
  KeyedWeakObserverList<AnyObject, T.TKey>()
}
