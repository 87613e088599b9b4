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

  /// Ends every subscription bound to `observer`: those made with `subscribe(_:block:)` and
  /// with `observe(with:_:)`, in every form (isolation-inheriting, actor owner, async).
  /// Values of those subscriptions that wait for the handler's actor are not delivered.
  ///
  /// Unsubscribing an object that never subscribed does nothing.
  public func unsubscribe(_ observer: AnyObject) {
    property.unsubscribe(observer)
  }

  /// The number of live subscriptions.
  @inlinable public var observerCount: Int { property.observerCount }

  /// Whether the property has at least one live subscription.
  public var isObserved: Bool { property.isObserved }
}
