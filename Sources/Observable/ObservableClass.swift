#if canImport(Combine)
import Combine
#endif

/// A base class that makes your class observable through observer protocols.
///
/// ```swift
/// protocol DummyObservable: AnyObject {
///   func onFooChanged(oldValue: String, newValue: String)
/// }
///
/// class Dummy: ObservableClass {
///   private var _foo = "Hello"
///   var foo: String {
///     get { _foo }
///     set {
///       withObservers { (observer: DummyObservable) in
///         observer.onFooChanged(oldValue: _foo, newValue: newValue)
///       }
///       _foo = newValue
///       objectWillChange.send()
///     }
///   }
/// }
///
/// let dummy = Dummy()
/// dummy.addObserver(someDummyObserver)
/// dummy.foo = "Test 1"   // someDummyObserver.onFooChanged(oldValue: "Hello", newValue: "Test 1")
/// ```
///
/// ## Threads and order
/// - `withObservers(_:)` calls the observers synchronously on the calling thread, in
///   subscription order, with no lock held. Passes on different threads run concurrently.
/// - Adding, removing and passing are safe from any thread. This class has the same engine
///   and the same guarantees as ``ObservableThreadSafeClass``, whose name states the intent.
///
/// ## Re-entrancy
/// A callback may add or remove observers and start nested passes, which run to completion
/// at once. An observer added during a pass is first called by the next pass; one removed
/// during a pass is not called by the rest of it. See ``Observable`` for the full contract.
///
/// ## Sendability
/// The class is not `Sendable`, so that your subclasses compile without warnings. To share
/// an instance across threads in checked code, restate the conformance on your subclass,
/// which vouches for the state you add: `final class Model: ObservableThreadSafeClass,
/// @unchecked Sendable { … }`.
///
/// ## SwiftUI
/// Where Combine exists the class is an `ObservableObject` with a stored `objectWillChange`;
/// call `objectWillChange.send()` yourself, or `notifyChange()` from any thread. `@Published`
/// fields of a subclass do not send it by themselves (see ``objectWillChange``). On other
/// platforms `objectWillChange` is an `ObservableObjectPublisher` stand-in with the same
/// `send()`.
open class ObservableClass: Observable {
  /// Every subscription, plain and keyed (see ObserverLists.swift): a
  /// `KeyedWeakObserverList<AnyObject, TKey>` for a keyed class, a
  /// `WeakObserverList<AnyObject>` else.
  @usableFromInline let observers: any ObserverMembers

  /// The list, for the package's tests.
  package var observerList: AnyObject { observers }

  /// The publisher that `objectWillChange.send()` and `notifyChange()` send through, one per
  /// instance, for the instance's life.
  ///
  /// Where Combine exists it is Combine's `ObservableObjectPublisher` and fulfils
  /// `ObservableObject`. It is stored, not left to Combine's synthesized default: that default
  /// keeps its publisher in the storage of a `@Published` field, and a class without one gets
  /// a new publisher on every access, so a send would reach no subscriber and SwiftUI would
  /// not refresh. A consequence: a subclass's `@Published` fields do not send through this
  /// publisher by themselves; call `objectWillChange.send()` in their `willSet`, or
  /// `notifyChange()`, as for any other field.
  ///
  /// Elsewhere it is ObservableKit's stand-in, `ObservableObjectPublisher`, whose `send()`
  /// calls its handlers synchronously on the calling thread.
  public let objectWillChange = ObservableObjectPublisher()

  /// Creates an observable with no observers.
  public init() {
    // The dynamic type tells the key type: a subclass that adopts `KeyedObservable` gets a
    // list keyed by its `TKey`.
    observers = makeObserverList(for: Self.self)
  }

  /// Registers `observer`, held weakly, for every later pass of `withObservers(_:)`.
  ///
  /// Adding an observer that is already registered (plainly or for a key) changes nothing,
  /// not even its place in the order. Safe from any thread and from inside a callback; an
  /// observer added during a pass is first called by the next pass.
  public func addObserver<TObservationProtocol: AnyObject>(_ observer: TObservationProtocol) {
    observers.add(observer)
  }

  /// Ends every subscription of `observer`, plain and keyed; does nothing if it has none.
  ///
  /// Once this returns, no pass starts a call to `observer`, including a pass in progress on
  /// this or another thread (a call another thread has already begun may still be running).
  /// Safe from any thread and from inside a callback.
  public func removeObserver<TObservationProtocol: AnyObject>(_ observer: TObservationProtocol) {
    observers.removeFromAllLists(observer)
  }

  /// Calls `code` with each live observer that conforms to `TObservationProtocol`.
  ///
  /// Name the observer protocol in the closure: `{ (observer: DummyObservable) in … }`.
  /// Keyed observers of a ``KeyedObservableClass`` are visited too.
  ///
  /// - Runs synchronously on the calling thread, in subscription order, and returns after the
  ///   last call; no lock is held while `code` runs.
  /// - Re-entrant: `code` may add or remove observers and start nested passes, which run to
  ///   completion at once. Observers added during the pass are not called by it; observers
  ///   removed before their turn are not called. Each observer is kept alive for its call.
  /// - An observer whose conformance is isolated to the main actor is called on the main
  ///   actor: off the main actor, the pass waits for it there, in the observer's turn.
  @inlinable
  open func withObservers<TObservationProtocol>(_ code: (_ observer: TObservationProtocol) -> Void) {
    // A class without keys holds a plain list: visited through its concrete type, the pass
    // is inlined here, where a visit through the protocol (which a keyed class's plain pass
    // still takes) is a call per observer (S6 in count-instructions.sh shows the difference).
    // The two closures are the same on purpose.
    if let unkeyed = observers as? WeakObserverList<AnyObject> {
      unkeyed.forEach { object in
        if let observer = object as? TObservationProtocol, !mustCallOnMainActor(object) {
          code(observer)
        } else {
          callIfIsolatedToMainActor(object, code)
        }
      }
    } else {
      observers.forEachInAnyList { object in
        if let observer = object as? TObservationProtocol, !mustCallOnMainActor(object) {
          code(observer)
        } else {
          callIfIsolatedToMainActor(object, code)
        }
      }
    }
  }

  /// Sends `objectWillChange` on the main actor, later: schedules a task and returns at once.
  ///
  /// Callable from any thread. Flowduino's spelling for SwiftUI support; like the async
  /// overload, it sends *after* the caller's change, so prefer calling
  /// `objectWillChange.send()` on the main thread before the change where you can. The main
  /// actor must be running (an app, or `dispatchMain()`) for the send to happen.
  open func notifyChange() {
    let send = objectWillChangeSender()
    Task { @MainActor in send() }
  }

  /// Sends `objectWillChange` on the main actor and returns once it was sent.
  ///
  /// In an async context a plain `notifyChange()` picks this overload, so it needs `await`.
  open func notifyChange() async {
    let send = objectWillChangeSender()
    await MainActor.run { send() }
  }

  /// Sends `objectWillChange`; callers call it on the main actor only.
  private func objectWillChangeSender() -> @Sendable () -> Void {
    #if canImport(Combine)
    // Combine's publisher is not Sendable; it crosses to the main actor only to be sent there.
    nonisolated(unsafe) let publisher = objectWillChange
    #else
    let publisher = objectWillChange
    #endif
    return { publisher.send() }
  }
}

#if canImport(Combine)
extension ObservableClass: ObservableObject {}
#endif
