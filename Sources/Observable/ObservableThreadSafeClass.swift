/// A base class that makes your class observable through observer protocols, from any
/// thread.
///
/// Use it exactly like ``ObservableClass``, which it extends without changing anything: in
/// this module every class holds its observers in the same locked observer list, so the
/// guarantees below hold for both. The name states the intent and keeps Flowduino code
/// compiling.
///
/// ## Threads and order
/// - `addObserver` and `removeObserver` work from any thread at any time, including from
///   inside a callback, and never wait for a running pass (the lock is only held for short
///   bookkeeping, never while observers run).
/// - Changes are linearizable: an observer whose `addObserver` returned before a
///   `withObservers` began is called by it; one whose `removeObserver` returned before, or
///   during the pass but before its turn, is not.
/// - `withObservers` calls the observers **synchronously on the calling thread**, in
///   subscription order, and returns after the last call. (Flowduino dispatched them
///   asynchronously to the queue that registered them, or to the main queue.) Passes on
///   different threads run concurrently, so observers must be ready to be called on several
///   threads.
/// - An observer whose conformance is isolated to the main actor (a main-actor class's, in a
///   module with new-app defaults) is called on the main actor, in its turn: a pass on
///   another thread waits for the main actor to call it, so the main thread must not wait
///   for that pass. See "Main-actor observers" in the Flowduino migration guide.
///
/// ## Sendability
/// The class is not `Sendable`, so that subclasses compile without warnings. To share your
/// subclass across threads in checked code, restate the conformance on it, which vouches for
/// the state you add:
///
/// ```swift
/// final class Inventory: ObservableThreadSafeClass, @unchecked Sendable {
///   // State you add here is yours to make thread-safe (a lock, immutability, …).
/// }
/// ```
open class ObservableThreadSafeClass: ObservableClass {
  /// Creates an observable with no observers.
  public override init() {
    super.init()
  }
}
