/// A value that notifies its observers every time it is set, and replays its current
/// value to each new observer.
///
/// ```swift
/// let score = Property(0)
/// score.observe { print("score:", $0) }.disposeWith(bag)   // prints "score: 0" at once
/// score.value = 100                                       // prints "score: 100"
/// score <~ 200                                            // the same as `score.value = 200`
/// ```
///
/// ## Threads and order
/// - Every set notifies, even with an equal value. Handlers run synchronously on the
///   setting thread, in registration order, with no lock of the library held.
/// - The new value is visible through ``value`` before any handler runs.
/// - A handler is never called concurrently with itself. Sets from several threads at
///   once: a handler's calls follow the order of the sets; a value that is superseded
///   before its turn comes is skipped, so an observer never sees an older value after a
///   newer one and always ends on the final value. If a handler is still running on
///   another thread when a newer value arrives, that thread delivers the newer value as
///   soon as the call returns; the setter does not wait.
///
/// ## Re-entrancy
/// - ``observe(_:)`` calls the handler with the current value before it returns (the
///   replay); a set racing with the replay never makes the handler go back in time.
/// - A set from inside a handler, on the same thread, takes effect at once and its
///   delivery is queued after the current pass, in order: every observer sees the same
///   sequence and ends on the final value.
/// - Reading ``value`` from a handler is always allowed.
///
/// `Property` is `Sendable` when `T` is.
public final class Property<T> {
  @usableFromInline let storage: ObserverStorage<PropertyUpdate<T>, PropertyState<T>>

  /// Creates a property holding `initialValue`. Creating it notifies nobody.
  public init(_ initialValue: T) {
    storage = ObserverStorage(state: PropertyState(value: initialValue))
  }

  deinit {
    storage.removeAll()
  }

  /// The current value. Setting it notifies every observer, even if the value is equal.
  @inlinable
  public var value: T {
    get { storage.withLock { $0.state.value } }
    set {
      let update = storage.withLock { header in
        // The old value leaves the lock inside the update, so its deinit runs outside.
        let update = header.state.replace(with: newValue)
        storage.advanceEpochLocked()
        return update
      }
      withExtendedLifetime(self) { storage.notify(update) }
    }
  }

  /// Calls `handler` with the current value at once, then with every later value.
  ///
  /// - Parameter handler: Called synchronously on the setting thread, after the handlers
  ///   registered before it.
  /// - Returns: A disposable that ends this registration. Dropping it does not end it.
  public func observe(_ handler: @escaping @Sendable (T) -> Void) -> any Disposable {
    let mailbox = SubscriberMailbox<T>()
    let (id, current) = storage.add(
      { _ in { update in mailbox.deliver(update.value, version: update.version, to: handler) } },
      reading: { state, _ in (version: state.version, value: state.value) }
    )
    storage.withDeliveryFrame {
      mailbox.deliver(current.value, version: current.version, to: handler)
    }
    return Subscription(storage: storage, id: id)
  }

  /// The number of live subscriptions.
  @inlinable public var observerCount: Int { storage.count }

  /// Whether the property has at least one live subscription.
  @inlinable public var isObserved: Bool { observerCount > 0 }
}

extension Property: Sendable where T: Sendable {}

/// What a property delivers to its handlers: one set.
@usableFromInline
struct PropertyUpdate<T> {
  @usableFromInline let version: UInt64
  @usableFromInline let value: T
  @usableFromInline let oldValue: T

  @inlinable
  init(version: UInt64, value: T, oldValue: T) {
    self.version = version
    self.value = value
    self.oldValue = oldValue
  }
}

/// The part of a property guarded by its storage lock.
@usableFromInline
struct PropertyState<T> {
  @usableFromInline var value: T
  /// Advances with every set; the initial value is version 1.
  @usableFromInline var version: UInt64 = 1
  /// The registrations made with `subscribe(_:block:)`, by observer.
  @usableFromInline var subscriptions: [ObjectIdentifier: [UInt64]] = [:]

  @inlinable
  init(value: T) {
    self.value = value
  }

  @inlinable
  mutating func replace(with newValue: T) -> PropertyUpdate<T> {
    version += 1
    let oldValue = value
    value = newValue
    return PropertyUpdate(version: version, value: newValue, oldValue: oldValue)
  }

  mutating func forget(_ id: UInt64, of observer: ObjectIdentifier) {
    subscriptions[observer]?.removeAll { $0 == id }
    if subscriptions[observer]?.isEmpty == true { subscriptions[observer] = nil }
  }
}
