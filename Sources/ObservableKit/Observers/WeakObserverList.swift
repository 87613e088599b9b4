/// A list of observers held weakly, each once, called in the order they were added: the
/// storage of a multicast delegate.
///
/// An object tells its observers through a protocol of yours; the list holds them weakly, so
/// an observer that owns the object makes no retain cycle, and a deallocated observer simply
/// stops being called.
///
/// ```swift
/// protocol AudioPlayerObserver: AnyObject {
///   func playerDidStart(_ player: AudioPlayer, track: Track)
///   func playerDidStop(_ player: AudioPlayer)
/// }
///
/// final class AudioPlayer {
///   private let observers = WeakObserverList<any AudioPlayerObserver>()
///
///   func addObserver(_ observer: any AudioPlayerObserver) { observers.add(observer) }
///   func removeObserver(_ observer: any AudioPlayerObserver) { observers.remove(observer) }
///
///   func play(_ track: Track) {
///     observers.forEach { $0.playerDidStart(self, track: track) }
///   }
/// }
/// ```
///
/// `Observer` is usually a class-bound protocol such as `any AudioPlayerObserver`, or a
/// class. Adding a value that is not a class instance stops with a precondition failure.
///
/// ## Threads and order
/// - ``forEach(_:)-((Observer)->Void)`` calls its closure synchronously, on the calling
///   thread, before it returns, once for each live observer, in the order they were first
///   added. No lock is held during the calls.
/// - Each observer is held strongly for the duration of its call. If that is the last
///   reference, it deinitializes on the visiting thread when its call returns.
/// - Every method is thread-safe: the list keeps an internal lock.
/// - The list is not `Sendable` unless `Observer` is: Swift 6 keeps a list of non-`Sendable`
///   observers, and the calls made to them, in one isolation domain.
///
/// ## Re-entrancy
/// The closure of ``forEach(_:)-((Observer)->Void)`` may call any method of the list,
/// including the list being visited:
/// - An observer added during a visit is not visited by it.
/// - An observer removed during a visit, before its turn, is not visited.
/// - A visit started from inside a visit runs to completion at once, before the call that
///   started it returns. Nothing is queued.
///
/// ## Lifetime
/// Deallocated observers are skipped and no longer counted. Their subscriptions are
/// dropped when a visit or a count comes across them. An object allocated later at the
/// address of a dead observer is a different observer.
///
/// For observers registered per key, use ``KeyedWeakObserverList``.
public final class WeakObserverList<Observer> {
  @usableFromInline let table = WeakObserverTable<Never>(tracksMembers: false)

  /// Creates an empty list.
  public init() {}

  /// Adds `observer` at the end of the order, unless it is in the list already: adding twice
  /// keeps its first place.
  public func add(_ observer: Observer) {
    table.add(weakObserverObject(observer), for: nil)
  }

  /// Removes `observer`. Does nothing if it is not in the list.
  public func remove(_ observer: Observer) {
    table.remove(observer as AnyObject, for: nil)
  }

  /// Removes every observer.
  public func removeAll() {
    table.removeAll()
  }

  /// Whether `observer` is in the list.
  public func contains(_ observer: Observer) -> Bool {
    table.contains(observer as AnyObject, in: .keyless)
  }

  /// The number of live observers. O(n): it checks each weak reference.
  public var count: Int {
    table.count(in: .keyless)
  }

  /// Whether no live observer is in the list.
  public var isEmpty: Bool {
    table.count(in: .keyless, limit: 1) == 0
  }

  /// Calls `body` with each live observer, now, on this thread, in the order they were
  /// added.
  ///
  /// Observers added during the visit are not visited; observers removed before their turn
  /// are not. An error thrown by `body` ends the visit and is rethrown. The visit allocates
  /// nothing unless it finds dead observers to drop.
  public func forEach(_ body: (Observer) throws -> Void) rethrows {
    // The cast consumes the reference the visit loaded, so a call costs one retain, not two.
    try table.forEach(in: .keyless) { object in try body((consume object) as! Observer) }
  }
}

/// A ``WeakObserverList`` whose observers may also register for keys: each key, and the
/// keyless list, is a list of its own, visited on its own.
///
/// ```swift
/// final class Downloader {
///   private let observers = KeyedWeakObserverList<any DownloadObserver, URL>()
///
///   func addObserver(_ observer: any DownloadObserver, for url: URL) {
///     observers.add(observer, for: url)
///   }
///
///   private func finished(_ url: URL) {
///     observers.forEach(for: url) { $0.downloadDidFinish(url) }
///     observers.forEach { $0.downloadDidFinish(url) }  // those that observe every URL
///   }
/// }
/// ```
///
/// An observer may be in the keyless list and in the lists of several keys; each
/// subscription is added and removed on its own. The keys are stored with their own type,
/// never boxed. A key with no subscription left takes no memory.
///
/// An observer in any of the lists is a member of the whole: `forEachInAnyList(_:)` visits
/// every member once, in the order it joined, and ``removeFromAllLists(_:)`` ends all of an
/// observer's subscriptions at once.
///
/// Threads, order, re-entrancy and lifetime follow ``WeakObserverList``, list by list:
/// `forEach(for:_:)` calls the observers of one key synchronously, on the calling thread,
/// in the order they were added for that key, with no lock held. A visit or a count that
/// comes across a deallocated observer drops its subscriptions from every list.
public final class KeyedWeakObserverList<Observer, Key: Hashable> {
  @usableFromInline let table = WeakObserverTable<Key>(tracksMembers: true)

  /// Creates an empty list.
  public init() {}

  /// Adds `observer` to the keyless list, unless it is there already.
  public func add(_ observer: Observer) {
    table.add(weakObserverObject(observer), for: nil)
  }

  /// Adds `observer` to the list of `key`, unless it is there already.
  public func add(_ observer: Observer, for key: Key) {
    table.add(weakObserverObject(observer), for: key)
  }

  /// Removes `observer` from the keyless list; its subscriptions for keys stay.
  public func remove(_ observer: Observer) {
    table.remove(observer as AnyObject, for: nil)
  }

  /// Removes `observer` from the list of `key`. Does nothing if it is not there.
  public func remove(_ observer: Observer, for key: Key) {
    table.remove(observer as AnyObject, for: key)
  }

  /// Removes `observer` from the keyless list and from the list of every key. Does nothing
  /// if it is in none.
  public func removeFromAllLists(_ observer: Observer) {
    table.removeFromAllLists(observer as AnyObject)
  }

  /// Removes every observer, from the keyless list and from every key.
  public func removeAll() {
    table.removeAll()
  }

  /// Whether `observer` is in the keyless list.
  public func contains(_ observer: Observer) -> Bool {
    table.contains(observer as AnyObject, in: .keyless)
  }

  /// Whether `observer` is in the list of `key`.
  public func contains(_ observer: Observer, for key: Key) -> Bool {
    table.contains(observer as AnyObject, in: .key(key))
  }

  /// The number of live observers in the keyless list. O(n).
  public var count: Int {
    table.count(in: .keyless)
  }

  /// The number of live observers in the list of `key`. O(n) in that list.
  public func count(for key: Key) -> Int {
    table.count(in: .key(key))
  }

  /// Whether no live observer is in the keyless list.
  public var isEmpty: Bool {
    table.count(in: .keyless, limit: 1) == 0
  }

  /// Calls `body` with each live observer of the keyless list, now, on this thread, in the
  /// order they were added. See ``WeakObserverList/forEach(_:)-((Observer)->Void)``.
  public func forEach(_ body: (Observer) throws -> Void) rethrows {
    try table.forEach(in: .keyless) { object in try body((consume object) as! Observer) }
  }

  /// Calls `body` with each live observer registered for `key`, now, on this thread, in the
  /// order they were added for that key. See ``WeakObserverList/forEach(_:)-((Observer)->Void)``.
  public func forEach(for key: Key, _ body: (Observer) throws -> Void) rethrows {
    try table.forEach(in: .key(key)) { object in try body((consume object) as! Observer) }
  }

  /// Calls `body` once with each live observer that is in the keyless list or in the list
  /// of any key, now, on this thread, in the order each joined the first of its lists.
  ///
  /// An observer stays in that order while it is in any list: adding it to another list
  /// keeps its place, and only once its last subscription ends does it leave. See
  /// ``WeakObserverList/forEach(_:)-((Observer)->Void)`` for threads and re-entrancy.
  public func forEachInAnyList(_ body: (Observer) throws -> Void) rethrows {
    try table.forEach(in: .members) { object in try body((consume object) as! Observer) }
  }
}

// The lock in `table` guards all the state, which holds weak references and no closures.
extension WeakObserverList: @unchecked Sendable where Observer: Sendable {}

// The lock in `table` guards all the state, which holds weak references, keys, no closures.
extension KeyedWeakObserverList: @unchecked Sendable where Observer: Sendable, Key: Sendable {}

extension WeakObserverList where Observer == AnyObject {
  /// `forEach(_:)` for a list of plain objects, which callers cast to their observer
  /// protocol at the call site: no cast in between, and inlined into the caller.
  @inlinable
  public func forEach(_ body: (AnyObject) throws -> Void) rethrows {
    try table.forEach(in: .keyless, body)
  }
}

extension KeyedWeakObserverList where Observer == AnyObject {
  /// `forEachInAnyList(_:)` for a list of plain objects, which callers cast to their
  /// observer protocol at the call site: no cast in between, and inlined into the caller.
  @inlinable
  public func forEachInAnyList(_ body: (AnyObject) throws -> Void) rethrows {
    try table.forEach(in: .members, body)
  }

  /// `forEach(for:_:)` for a list of plain objects: no cast in between, and inlined into
  /// the caller, so a caller that knows `Key` hashes it without generic dispatch.
  @inlinable
  public func forEach(for key: Key, _ body: (AnyObject) throws -> Void) rethrows {
    try table.forEach(in: .key(key), body)
  }
}
