/// A typed event that calls its observers' handlers each time it is notified.
///
/// ```swift
/// let scoreChanged = ObservableEvent<Int>()
/// let token = scoreChanged.observe { score in print("score:", score) }
/// scoreChanged.notifyObservers(1000)   // prints "score: 1000"
/// token.dispose()
/// ```
///
/// The value may be a tuple, observed with a destructuring closure, or `Void`:
///
/// ```swift
/// let scored = ObservableEvent<(score: Int, isHighScore: Bool)>()
/// scored.observe { score, isHighScore in … }.disposeWith(bag)
/// let tapped = ObservableEvent<Void>()
/// tapped.notifyObservers()
/// ```
///
/// ## Threads and order
/// - Handlers run synchronously on the thread that calls ``notifyObservers(_:)``, in the
///   order they were registered. No lock of the library is held while they run.
/// - An `ObservableEvent` is not `Sendable`: the compiler keeps the event, its notifications
///   and its handlers in the isolation domain that made it, so handlers are plain closures
///   that may capture and change whatever that domain owns (a local `var`, a non-`Sendable`
///   view, a `@MainActor` class's state). To notify from one domain and observe from
///   another, use ``SharedEvent``. Code that shares an event anyway (Swift 5 mode) still gets
///   a consistent list: notifications from different threads are then delivered
///   concurrently, each on its own thread.
///
/// ## Re-entrancy
/// - A handler that disposes a subscription (its own or another's) is never called again
///   once `dispose()` returns, not even by the pass in progress.
/// - A handler registered from inside a handler first hears the next notification.
/// - A notification made from inside a handler, on the same thread, is queued and delivered
///   after the current pass, in order, so every observer sees the same sequence.
///
/// ## Lifetime
/// The event holds its handlers strongly until they are disposed or the event
/// deinitializes; dropping the event ends all its subscriptions. An event that is released
/// while it notifies finishes the pass first. A handler that captures the event it observes
/// makes a cycle that lasts until the subscription is disposed.
public final class ObservableEvent<T>: EventSource {
  @usableFromInline let storage: ObserverStorage<T, Void>
  /// The last values, for an event made with `replay:`; nil for one without.
  @usableFromInline let replay: EventReplay<T>?

  /// Creates an event with no observers.
  public init() {
    storage = ObserverStorage(state: ())
    replay = nil
  }

  /// Creates an event that replays its last `count` values to each new observer.
  ///
  /// ```swift
  /// let recent = ObservableEvent<Message>(replay: 3)
  /// recent.notifyObservers(a); recent.notifyObservers(b)
  /// recent.observe { print($0) }.disposed(by: bag)   // prints a, then b, at once
  /// ```
  ///
  /// Each new subscription (every form of `observe`, and the operators built on it) first
  /// hears the last `count` values, oldest first, synchronously inside the `observe` call,
  /// then every later notification: no value twice, none left out. A notification made by
  /// a handler during its replay is delivered after the replay. `replay: 0` makes an
  /// ordinary event; a negative `count` is taken as 0. The values are held strongly until
  /// newer ones evict them or the event deinitializes.
  public init(replay count: Int) {
    storage = ObserverStorage(state: ())
    replay = count > 0 ? EventReplay(capacity: count) : nil
  }

  /// Creates an event that replays its last `count` values to each new observer, keeping
  /// them for as long as `scope` says.
  ///
  /// ```swift
  /// let screenState = ObservableEvent<State>(replay: 1, scope: .whileObserved)
  /// ```
  ///
  /// ``ReplayScope/forever`` is ``init(replay:)``. With ``ReplayScope/whileObserved``, the
  /// values are released when the last subscription ends (disposed, by its bag, or, for an
  /// owner-bound one, when the event learns that its owner has gone: at its next
  /// notification or count), and a value notified while nobody observes is not kept: an
  /// observer that comes back after everybody left hears only new values.
  public init(replay count: Int, scope: ReplayScope) {
    storage = ObserverStorage(state: ())
    replay = count > 0 ? EventReplay(capacity: count, scope: scope) : nil
  }

  deinit {
    storage.removeAll()
  }

  /// Registers `handler` to be called with every later notification.
  ///
  /// - Parameter handler: Called synchronously on the notifying thread, after the handlers
  ///   registered before it.
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  @inlinable @_disfavoredOverload
  public func observe(_ handler: @escaping (T) -> Void) -> any Disposable {
    if replay != nil { return InlineSubscription(storage: storage, id: registerReplaying(handler)) }
    return InlineSubscription(storage: storage, id: storage.add(handler))
  }

  /// Registers `handler` to be called with every later notification, as ``observe(_:)``
  /// does; in a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription
  /// is named by `fileID:line`, the call site.
  @inlinable
  public func observe(
    _ handler: @escaping (T) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    let id = replay == nil ? storage.add(handler) : registerReplaying(handler)
    return SubscriptionSites.named(InlineSubscription(storage: storage, id: id), fileID, line)
  }

  /// Registers `handler` for as long as `owner` is alive, passing the owner in, so the
  /// handler needs no `[weak self]`.
  ///
  /// ```swift
  /// scoreChanged.observe(with: self) { controller, score in controller.show(score) }
  /// ```
  ///
  /// `owner` is held weakly and passed to the handler strongly. Once its deinit has begun,
  /// nothing is delivered and the subscription no longer counts in ``observerCount``. You
  /// need not keep the returned disposable. Once the owner has gone, the handler is released
  /// at the latest at the event's next notification, count, or owner-bound subscription (a
  /// sweep of dead owners runs whenever they have doubled). Once the subscription ends, the
  /// owner keeps nothing of it alive.
  @inlinable @discardableResult
  public func observe<Owner: AnyObject>(
    with owner: Owner,
    _ handler: @escaping (Owner, T) -> Void
  ) -> any Disposable {
    // The storage's own owner subscription, not `ExternalOwner`: a gone owner stops
    // counting in `observerCount` at once, and the storage, not a record of the owner,
    // holds the link (see `OwnerLink`).
    if replay != nil {
      return InlineSubscription(storage: storage, id: registerReplaying(owner: owner, handler))
    }
    return InlineSubscription(storage: storage, id: storage.add(owner: owner, handler))
  }

  /// A replaying event's subscriptions, out of line (specialized in the client, not inlined)
  /// so that a plain event's `observe` does not carry the replay's code. The callers test
  /// `replay != nil` rather than bind it: binding copies the reference, and a copy of nil
  /// still costs a retain and a release call on every `observe` of a plain event.
  @inlinable @inline(never)
  func registerReplaying(_ handler: @escaping (T) -> Void) -> UInt64 {
    replay.unsafelyUnwrapped.register(on: storage, handler)
  }

  @inlinable @inline(never)
  func registerReplaying<Owner: AnyObject>(owner: Owner, _ handler: @escaping (Owner, T) -> Void) -> UInt64 {
    replay.unsafelyUnwrapped.register(on: storage, owner: owner, handler)
  }

  /// Calls every registered handler with `value`, in subscription order, on this thread.
  ///
  /// Called from inside one of this event's handlers, it queues `value` and returns at once;
  /// the value is delivered after the current pass.
  @inlinable
  public func notifyObservers(_ value: T) {
    withExtendedLifetime(self) {
      // The replaying event's path stays out of line, off the plain event's notification.
      if _slowPath(replay != nil) { replay.unsafelyUnwrapped.notify(value, in: storage) } else { storage.notify(value) }
    }
  }

  /// The number of live subscriptions.
  @inlinable public var observerCount: Int { storage.count }

  /// Whether the event has at least one live subscription.
  @inlinable public var isObserved: Bool { observerCount > 0 }
}

extension ObservableEvent where T == Void {
  /// Notifies the observers of a `Void` event.
  @inlinable
  public func notifyObservers() {
    notifyObservers(())
  }
}

extension ObservableEvent: CustomDebugStringConvertible {
  /// The event's type and live observer count, for example `ObservableEvent<Int>(observers: 2)`.
  public var debugDescription: String {
    "ObservableEvent<\(T.self)>(observers: \(observerCount))"
  }
}
