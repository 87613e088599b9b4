/// A typed event that may be shared across isolation domains: notify it from any thread,
/// task or actor, and observe it from any of them.
///
/// ```swift
/// let downloads = SharedEvent<Int>()                 // Sendable: hand it to any task
///
/// @MainActor final class ProgressViewModel {
///   var percent = 0
///   let bag = DisposeBag()
///   init(downloads: SharedEvent<Int>) {
///     downloads.observe { [weak self] in self?.percent = $0 }.disposed(by: bag)
///   }
/// }
/// ```
///
/// Use ``ObservableEvent`` when the event and its observers live in one isolation domain (a
/// model on the main actor, an actor's own state): it takes plain closures and calls them
/// synchronously. Use `SharedEvent` when the notifying side and the observing side are
/// different domains.
///
/// ## Where and when handlers run
/// A handler keeps the isolation of the code that registered it:
/// - Registered from **nonisolated** code, it runs on the notifying thread before
///   ``notifyObservers(_:)`` returns.
/// - Registered from the **main actor** (a `@MainActor` class, a new app's default
///   isolation), it runs on the main actor: before ``notifyObservers(_:)`` returns when that
///   is called on the main actor and nothing of this subscription waits, otherwise later,
///   enqueued to the main actor.
/// - Registered from **another actor**, it is always enqueued to that actor.
/// - These rules hold on every OS version, with no task and no allocation per value, for the
///   owner-bound forms (`observe(with:_:)`) too. A value that must hop waits in the
///   subscription's queue, and one job on the handler's actor delivers all that waits.
///
/// Either way the calls of one subscription never overlap and keep the order of the
/// notifications. A notification that comes while the subscription is being called waits
/// and is delivered by the thread or actor making the calls, right after the current call.
/// Once `dispose()` returns, no value is taken for a call (one already taken by a drain on
/// another thread may still run). Subscriptions run in subscription order for each
/// notification.
///
/// ``observe(on:_:)-(DispatchQueue,_)`` and ``observe(on:_:)-(MainActor,_)`` are there for
/// code that wants a queue or the main actor regardless of where it registers.
///
/// ## Re-entrancy
/// A notification made from inside a handler, on the same thread, is queued and delivered
/// after the current pass, in order, as for ``ObservableEvent``.
public final class SharedEvent<T: Sendable>: SharedEventSource, @unchecked Sendable {
  // `event`'s storage lock guards all of its state (its replay ring included), and every
  // handler this type registers on it is @Sendable (it only forwards to a Sendable delivery).
  @usableFromInline let event: ObservableEvent<T>
  /// What drives the event besides ``notifyObservers(_:)``: the iteration of the async
  /// sequence an event made with `init(_:replay:scope:start:stop:)` delivers; nil otherwise.
  /// Sendable: its state is under its own lock.
  @usableFromInline let source: (any SharedEventDriver)?

  /// Creates an event with no observers.
  public init() {
    event = ObservableEvent()
    source = nil
  }

  /// Creates an event that replays its last `count` values to each new observer; see
  /// ``ObservableEvent/init(replay:)``.
  ///
  /// ```swift
  /// let log = SharedEvent<String>(replay: 10)
  /// ```
  ///
  /// Also when values are notified from other threads while an observer registers, each
  /// value reaches it once, from the replay or live, and the replay comes first: a live
  /// value that reaches the new subscription during its replay waits and is delivered by the
  /// registering thread right after the replay. `replay: 0` makes an ordinary event; a
  /// negative `count` is taken as 0.
  public init(replay count: Int) {
    event = ObservableEvent(replay: count)
    source = nil
  }

  /// Creates an event that replays its last `count` values to each new observer, keeping
  /// them for as long as `scope` says; see ``ObservableEvent/init(replay:scope:)``.
  ///
  /// ```swift
  /// let quotes = SharedEvent<Quote>(replay: 1, scope: .whileObserved)
  /// ```
  public init(replay count: Int, scope: ReplayScope) {
    event = ObservableEvent(replay: count, scope: scope)
    source = nil
  }

  /// The designated initializer of an event driven by `source`, which the caller then hands
  /// the event.
  init(replay count: Int, scope: ReplayScope, source: any SharedEventDriver) {
    event = ObservableEvent(replay: count, scope: scope)
    self.source = source
  }

  /// Delivers `value` to every subscription, in subscription order; see the type's
  /// discussion for where each handler runs.
  @inlinable
  public func notifyObservers(_ value: T) {
    event.notifyObservers(value)
  }

  /// Registers `handler`, called synchronously on the notifying thread, concurrently when
  /// notifications come from several threads: the family's fast path, for nonisolated code.
  ///
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  @inlinable @_disfavoredOverload
  public func observeNonisolated(_ handler: @escaping @Sendable (T) -> Void) -> any Disposable {
    // Tested, not bound: binding copies the reference, and a copy of nil still costs a
    // retain and a release call on every subscription of a plain event.
    if source != nil { return source.unsafelyUnwrapped.observe { event.observe(handler) } }
    return event.observe(handler)
  }

  /// Registers `handler` as ``observeNonisolated(_:)`` does; in a debug build inside
  /// ObservableKitTesting's `withLeakCheck`, the subscription is named by `fileID:line`.
  @inlinable
  public func observeNonisolated(
    _ handler: @escaping @Sendable (T) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    if source != nil {
      return source.unsafelyUnwrapped.observe { event.observe(handler, fileID: fileID, line: line) }
    }
    return event.observe(handler, fileID: fileID, line: line)
  }

  /// The number of live subscriptions.
  @inlinable public var observerCount: Int { event.observerCount }

  /// Whether the event has at least one live subscription.
  public var isObserved: Bool { event.isObserved }
}

extension SharedEvent where T == Void {
  /// Notifies the observers of a `Void` event.
  public func notifyObservers() {
    notifyObservers(())
  }
}

/// What drives a ``SharedEvent`` besides its `notifyObservers`, and sees each subscription
/// made: the event's observers start and stop it. The iteration of an async sequence
/// (Async/'s `AsyncEventSource`) is the one kind; the event names only this protocol, so
/// Shared/ does not depend on the feature that drives it.
@usableFromInline
protocol SharedEventDriver: AnyObject, Sendable {
  /// Registers with `register` and counts the observer; the returned disposable uncounts it.
  func observe(_ register: () -> any Disposable) -> any Disposable
}
