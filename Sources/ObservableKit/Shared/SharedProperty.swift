/// A value that may be shared across isolation domains: set it from any thread, task or
/// actor, and observe it from any of them. It replays its current value to each new
/// observer and notifies on every set.
///
/// ```swift
/// let connection = SharedProperty(ConnectionState.offline)   // Sendable
///
/// @MainActor final class StatusViewModel {
///   var title = ""
///   let bag = DisposeBag()
///   init(connection: SharedProperty<ConnectionState>) {
///     // Runs now, on the main actor, with the current value; then on every set.
///     connection.observe { [weak self] in self?.title = "\($0)" }.disposed(by: bag)
///   }
/// }
/// ```
///
/// Use ``Property`` when the property and its observers live in one isolation domain: it
/// takes plain closures. `SharedProperty` keeps the thread-safety contract of ``Property``
/// (the value is visible before any handler runs, calls never go back in time and end on
/// the final value) and adds the delivery rules of ``SharedEvent``: each handler keeps the
/// isolation of the code that registered it. A main-actor observer registered on the main
/// thread hears the replay before ``SharedEventSource/observe(_:fileID:line:)`` returns, on
/// every OS version.
public final class SharedProperty<T: Sendable>: SharedPropertySource, @unchecked Sendable {
  // `property`'s storage lock guards all of its state, and every handler this type registers
  // on it is @Sendable (it only forwards to a Sendable delivery or handler).
  @usableFromInline let property: Property<T>

  /// Creates a property holding `initialValue`. Creating it notifies nobody.
  ///
  /// - Parameters:
  ///   - initialValue: The value the property starts with.
  ///   - observationTracking: Whether reads and sets are reported to Swift Observation; see
  ///     ``Property/init(_:observationTracking:)``.
  public init(_ initialValue: T, observationTracking: Bool = true) {
    property = Property(initialValue, observationTracking: observationTracking)
  }

  /// Wraps `property`, which this shared property then owns alone.
  init(property: Property<T>) {
    self.property = property
  }

  /// The current value. Setting it notifies every observer, even if the value is equal.
  @inlinable
  public var value: T {
    get { property.value }
    set { property.value = newValue }
  }

  /// Changes the value in place, atomically; see ``Property/modify(_:)``.
  @discardableResult
  public func modify<R>(_ body: (inout T) throws -> R) rethrows -> R {
    try property.modify(body)
  }

  /// Registers `handler`, called with the current value at once, then with every later
  /// value, synchronously on the setting thread: the family's fast path, for nonisolated
  /// code. Calls never overlap; see ``Property``.
  @inlinable @_disfavoredOverload
  public func observeNonisolated(_ handler: @escaping @Sendable (T) -> Void) -> any Disposable {
    property.observe(handler)
  }

  /// Registers `handler` as ``observeNonisolated(_:)`` does; in a debug build inside
  /// ObservableKitTesting's `withLeakCheck`, the subscription is named by `fileID:line`.
  @inlinable
  public func observeNonisolated(
    _ handler: @escaping @Sendable (T) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    property.observe(handler, fileID: fileID, line: line)
  }

  /// Registers `handler` for every value set from now on, without the replay, as
  /// ``observeNonisolated(_:)`` does.
  @inlinable @_disfavoredOverload
  public func observeChangesNonisolated(_ handler: @escaping @Sendable (T) -> Void) -> any Disposable {
    property.observeChanges(handler)
  }

  /// Registers `handler` as ``observeChangesNonisolated(_:)`` does; in a debug build inside
  /// ObservableKitTesting's `withLeakCheck`, the subscription is named by `fileID:line`.
  @inlinable
  public func observeChangesNonisolated(
    _ handler: @escaping @Sendable (T) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    property.observeChanges(handler, fileID: fileID, line: line)
  }

  /// Calls `block` with the new and the old value each time the property is set, for as
  /// long as `observer` is alive, passing the observer in. The block keeps the isolation of
  /// the caller, as for ``SharedEventSource/observe(_:fileID:line:)``; it does not hear the current
  /// value.
  ///
  /// - Returns: A disposable that ends this subscription early; ``unsubscribe(_:)`` ends all
  ///   subscriptions of `observer` at once.
  @discardableResult
  public func subscribe<Observer: AnyObject & Sendable>(
    _ observer: Observer,
    @_inheritActorContext block: @escaping @isolated(any) @Sendable (Observer, _ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    let plain = BoundOwnerHandler.plain(block)
    return register(owner: observer, replay: false, BoundOwnerCall(isolation: block.isolation) { observer, update in
      plain(observer, update.value, update.oldValue)
    })
  }

  /// Calls `handler` with the owner and the current value, then with every later value, for
  /// as long as `owner` is alive, passing the owner in, so the handler needs no
  /// `[weak self]`. The handler keeps the isolation of the caller, as for
  /// ``SharedEventSource/observe(_:fileID:line:)``.
  ///
  /// `owner` is held weakly, also while a value waits for the handler's actor, and passed
  /// to the handler strongly. Once its deinit has begun nothing is delivered, and the
  /// subscription no longer counts in ``observerCount``. ``unsubscribe(_:)`` ends it. You
  /// need not keep the returned disposable.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    with owner: Owner,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Owner, T) -> Void
  ) -> any Disposable {
    let handler = BoundOwnerCall(handler)
    return register(owner: owner, replay: true, BoundOwnerCall(isolation: handler.isolation) { owner, update in
      handler.body(owner, update.value)
    })
  }

  /// Ends every subscription bound to `observer`: those made with `subscribe(_:block:)` and
  /// with `observe(with:_:)`, in every form (isolation-inheriting, actor owner, async).
  /// Values of those subscriptions that wait for the handler's actor are not delivered.
  ///
  /// Unsubscribing an object that never subscribed does nothing.
  public func unsubscribe(_ observer: AnyObject) {
    property.unsubscribe(observer)
  }

  /// The owner-bound subscription behind ``subscribe(_:block:)`` and ``observe(with:_:)``,
  /// delivered as `observe { }` delivers a handler of `call`'s isolation (see
  /// `OwnerBoundDelivery`). The storage learns the owner, so ``unsubscribe(_:)`` and the
  /// count see it, and it checks the owner for each value and sweeps dead owners. A value
  /// waiting for the handler's actor holds the owner weakly: it is loaded when the call
  /// starts, so a released owner is not kept alive by what waits, and nothing is delivered
  /// once its deinit has begun.
  private func register<Owner: AnyObject & Sendable>(
    owner: Owner,
    replay: Bool,
    _ call: BoundOwnerCall<Owner, PropertyUpdate<T>>
  ) -> any Disposable {
    OwnerBoundDelivery.make(owner: WeakReference(owner), call) { forward in
      property.register(owner: owner, replay: replay) { _, update in forward(update) }
    }
  }

  /// The number of live subscriptions.
  @inlinable public var observerCount: Int { property.observerCount }

  /// Whether the property has at least one live subscription.
  public var isObserved: Bool { property.isObserved }
}
