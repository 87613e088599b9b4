/// An object that other objects can observe through observer protocols of your choosing.
///
/// Observers register with `addObserver(_:)` and are held
/// weakly. The observable calls them with `withObservers(_:)`, naming the observer
/// protocol in the closure's parameter; one observable serves any number of observer
/// protocols:
///
/// ```swift
/// protocol ScoreObserver: AnyObject {
///   func scoreChanged(from oldValue: Int, to newValue: Int)
/// }
///
/// final class Game: ObservableClass {
///   private(set) var score = 0
///   func add(points: Int) {
///     let newScore = score + points
///     withObservers { (observer: ScoreObserver) in
///       observer.scoreChanged(from: score, to: newScore)
///     }
///     score = newScore
///   }
/// }
/// ```
///
/// ``ObservableClass``, ``ObservableThreadSafeClass`` and ``ObservableThread`` implement this
/// protocol; subclass one of them rather than conforming yourself.
///
/// ## Contract of the classes of this module
/// - Observers are held weakly and identified by object identity: adding one twice is one
///   subscription; removing one that was never added does nothing; a deallocated observer
///   is never called and its subscription is pruned by the next pass that reaches it.
/// - `withObservers(_:)` calls the observers synchronously, on the calling thread, in
///   subscription order, and returns when all were called. No lock is held while they run.
/// - Re-entrancy: a callback may add, remove or start another pass, on this object or any
///   other. A nested pass runs to completion before the outer callback continues. An observer
///   added during a pass is first called by the next pass; one removed during a pass is not
///   called by the rest of it.
/// - Threads: add, remove and pass from any thread. An observer whose `addObserver` returned
///   before a pass began is called by it; one whose `removeObserver` returned before is not.
public protocol Observable: AnyObject {
  /// Registers `observer`, held weakly, for every later pass of `withObservers(_:)`.
  ///
  /// Adding an observer that is already registered changes nothing, not even its place in
  /// the order. Safe from any thread and from inside a callback; an observer added during a
  /// pass is first called by the next pass.
  func addObserver<TObservationProtocol: AnyObject>(_ observer: TObservationProtocol)

  /// Registers each of `observers`, in array order, as `addObserver(_:)` does (same threads
  /// and re-entrancy).
  ///
  /// The array may mix classes (`[playerView, miniPlayer]`) or hold protocol existentials.
  func addObserver(_ observers: [AnyObject])

  /// Ends every subscription of `observer`, plain and keyed; does nothing if it has none.
  ///
  /// Once this returns, no pass starts a call to `observer`, including a pass already in
  /// progress on this or another thread (a call another thread has already begun may still
  /// be running). Safe from any thread and from inside a callback.
  func removeObserver<TObservationProtocol: AnyObject>(_ observer: TObservationProtocol)

  /// Removes each of `observers`, as `removeObserver(_:)` does (same threads and
  /// re-entrancy).
  func removeObserver(_ observers: [AnyObject])

  /// Calls `code` with each live observer that conforms to `TObservationProtocol`.
  ///
  /// The closure must name the observer protocol as its parameter's type,
  /// `{ (observer: MyObserver) in … }`: observers are filtered by a run-time cast to that
  /// type, so one observable serves any number of observer protocols. A class type works too,
  /// and `(observer: AnyObject)` visits every observer.
  ///
  /// - Runs synchronously on the calling thread, in subscription order, and returns after the
  ///   last call. `code` is non-escaping, so it may read `self` without `self.` and the
  ///   observers see the state as it is at the time of the call ("old value" patterns work).
  /// - Re-entrant: `code` may add or remove observers and start nested passes, which run to
  ///   completion at once. Observers added during the pass are not called by it; observers
  ///   removed before their turn are not called.
  func withObservers<TObservationProtocol>(_ code: (_ observer: TObservationProtocol) -> Void)
}

extension Observable {
  /// Registers each of `observers`, in array order, with `addObserver(_:)`: safe from any
  /// thread and from inside a callback.
  public func addObserver(_ observers: [AnyObject]) {
    for observer in observers { addObserver(observer) }
  }

  /// Removes each of `observers` with `removeObserver(_:)`: safe from any thread and from
  /// inside a callback.
  public func removeObserver(_ observers: [AnyObject]) {
    for observer in observers { removeObserver(observer) }
  }

  /// A pass whose closure does not name the observer protocol: it visits every observer.
  ///
  /// A closure such as `{ observer in print(observer) }` gives the compiler nothing to infer
  /// the protocol from. Flowduino's Observable silently matched every observer then; this
  /// overload catches it, so the compiler warns. Name the protocol,
  /// `{ (observer: MyObserver) in … }`, or write `(observer: AnyObject)` to visit every
  /// observer on purpose. Threads, order and re-entrancy are those of `withObservers(_:)`.
  @available(*, deprecated, message: "name the observer protocol: withObservers { (observer: MyObserver) in ... }; (observer: AnyObject) visits every observer")
  public func withObservers(_ code: (_ observer: Any) -> Void) {
    withObservers { (observer: AnyObject) in code(observer) }
  }
}
