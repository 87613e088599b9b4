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
///   setting thread, in subscription order, with no lock of the library held.
/// - The new value is visible through ``value`` before any handler runs.
/// - One thread at a time delivers a property's values, so a handler is never called
///   concurrently with itself. A set made while another thread is delivering updates the
///   value and returns at once; that thread delivers the newest value as soon as its pass
///   ends. Handlers' calls follow the order of the sets; a value that is superseded before
///   its turn comes is skipped, so an observer never sees an older value after a newer one
///   and always ends on the final value.
///
/// ## Re-entrancy
/// - ``observe(_:)`` calls the handler with the current value before it returns (the
///   replay); a set racing with the replay never makes the handler go back in time.
/// - A set from inside a handler, on the same thread, takes effect at once and its
///   delivery is queued after the current pass, in order: every observer sees the same
///   sequence and ends on the final value.
/// - Reading ``value`` from a handler is always allowed.
///
/// ## A property wrapper on model classes
/// `@Property` declares a model's value and its property in one line. The wrapped property
/// reads and sets ``value``; `$name` is the `Property` itself, with everything it has:
///
/// ```swift
/// final class Game {
///   @Property var score = 0
/// }
/// game.score += 10                                   // notifies
/// game.$score.observe { print($0) }.disposed(by: bag)
/// ```
///
/// It is for classes only: in a struct it is a compile error (a copy of the struct would
/// share the one `Property` with the original): `wrappedValue` is unavailable.
///
/// ## Isolation
/// A `Property` is not `Sendable`: the compiler keeps it, and the plain closures it calls, in
/// the isolation domain that made it (a `@MainActor` model's property is notified on the main
/// actor, and its handlers may touch main-actor state). To share a value across domains, use
/// ``SharedProperty``.
@propertyWrapper
public final class Property<T>: PropertySource {
  @usableFromInline let storage: ObserverStorage<PropertyUpdate<T>, PropertyState<T>>
  /// Whether reads and sets are reported to Swift Observation.
  @usableFromInline let tracksObservation: Bool
  /// The store every set writes through to, for a persisted property; nil otherwise.
  @usableFromInline let persistence: PropertyPersistence<T>?

  /// Creates a property holding `initialValue`. Creating it notifies nobody.
  ///
  /// - Parameters:
  ///   - initialValue: The value the property starts with.
  ///   - observationTracking: Whether reads and sets are reported to Swift Observation, so
  ///     that `withObservationTracking` and SwiftUI views see them (where the Observation
  ///     module is available). It costs nothing until the first read of ``value``; from
  ///     then on every set pays Observation's bookkeeping (a few hundred nanoseconds on
  ///     Linux; see the Performance article), tracked or not. Pass `false` for a property
  ///     that no view or tracking closure reads.
  public init(_ initialValue: T, observationTracking: Bool = true) {
    storage = ObserverStorage(state: PropertyState(value: initialValue))
    tracksObservation = observationTracking
    persistence = nil
  }

  /// A persisted property: every set writes through `persistence`.
  init(_ initialValue: T, observationTracking: Bool, persistence: PropertyPersistence<T>) {
    storage = ObserverStorage(state: PropertyState(value: initialValue))
    tracksObservation = observationTracking
    self.persistence = persistence
  }

  deinit {
    storage.removeAll()
  }

  // MARK: - The property wrapper
  // Every member a wrapper uses must be declared in the type itself. The enclosing-instance
  // subscript, the form Combine's `@Published` uses, makes the wrapper class-only:
  // `wrappedValue` is unavailable, so a struct, whose copies would share one `Property`,
  // fails to compile.

  /// Creates the property behind `@Property var name = initialValue`.
  ///
  /// ```swift
  /// @Property var score = 0
  /// @Property(observationTracking: false) var frameCount = 0
  /// ```
  ///
  /// - Parameters:
  ///   - wrappedValue: The value the property starts with.
  ///   - observationTracking: Whether reads and sets are reported to Swift Observation; see
  ///     ``init(_:observationTracking:)``.
  public convenience init(wrappedValue: T, observationTracking: Bool = true) {
    self.init(wrappedValue, observationTracking: observationTracking)
  }

  /// Unavailable: `@Property` wraps stored properties of classes only.
  ///
  /// A struct copies its stored properties, and `Property` is a class, so every copy of a
  /// struct would share one property and one list of observers: setting `score` on a copy
  /// would notify the original's observers. Declaring `@Property` in a struct is therefore a
  /// compile error ("'wrappedValue' is unavailable"). In a struct, store the value itself;
  /// in a class, `@Property`. Read and set a standalone property through ``value``.
  @available(*, unavailable, message: "@Property is only available on properties of classes")
  public var wrappedValue: T {
    get { fatalError("unavailable") }
    set { fatalError("unavailable") }
  }

  /// The property itself: `$score` is the `Property` behind `@Property var score`.
  ///
  /// In a class, `model.$score` goes through the enclosing-instance subscript's `projected:`
  /// form, which returns this same object (the storage `_score`); declaring this member is
  /// what gives the wrapper a projection.
  @inlinable public var projectedValue: Property<T> { self }

  /// The wrapped property of a class: reading it reads ``value`` (reported to Swift
  /// Observation), setting it sets ``value`` and notifies, on the setting thread, before the
  /// set returns.
  ///
  /// `model.score += 1` is a read followed by a set, like any computed property; to change
  /// the value atomically use `model.$score.modify { $0 += 1 }`.
  ///
  /// Where ``PropertyModel/propertyChanges`` finds properties by registration, the first
  /// access registers the property with `model` (see ``PropertyModel``).
  @inlinable
  public static subscript<Model: AnyObject>(
    _enclosingInstance model: Model,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Model, T>,
    storage storageKeyPath: ReferenceWritableKeyPath<Model, Property<T>>
  ) -> T {
    // The storage (`_name`) is a `var`, so the compiler retains the property around each
    // access. A read runs no user code, so nothing can replace `_name` during it: it borrows.
    // A set runs handlers, which may replace `_name`, so it keeps the retain.
    get {
      Unmanaged.passUnretained(model[keyPath: storageKeyPath])._withUnsafeGuaranteedRef { property in
        if ModelProperties.wrappersRegister { property.registerWithModel(model, storageKeyPath) }
        return property.value
      }
    }
    set {
      let property = model[keyPath: storageKeyPath]
      if ModelProperties.wrappersRegister { property.registerWithModel(model, storageKeyPath) }
      property.value = newValue
    }
  }

  /// The projection of a class's wrapped property: `model.$score` is the property itself,
  /// the same object on every read (the storage `_score`).
  ///
  /// Where ``PropertyModel/propertyChanges`` finds properties by registration, the first
  /// access registers the property with `model`, as the wrapped property's does, so that a
  /// change made through the projection (`model.$score.value = 5`) is heard too.
  @inlinable
  public static subscript<Model: AnyObject>(
    _enclosingInstance model: Model,
    projected projectedKeyPath: KeyPath<Model, Property<T>>,
    storage storageKeyPath: ReferenceWritableKeyPath<Model, Property<T>>
  ) -> Property<T> {
    let property = model[keyPath: storageKeyPath]
    if ModelProperties.wrappersRegister { property.registerWithModel(model, storageKeyPath) }
    return property
  }

  /// Registers this property, the storage of `model` that `keyPath` names, with the model
  /// once (``ModelRegistry``). Out of line: the accessors pay a call only where the wrappers
  /// register. The registry, not the property, remembers the registration: a stored flag
  /// here cost every property four retains at its creation (the optimizer then copied the
  /// storage's header generically; check-thresholds.sh, S9).
  @usableFromInline @inline(never)
  func registerWithModel(_ model: AnyObject, _ keyPath: AnyKeyPath) {
    ModelRegistry.shared.register(self, of: model, at: keyPath)
  }

  // MARK: - Value and observation

  /// The current value. Setting it notifies every observer, even if the value is equal.
  @inlinable
  public var value: T {
    get {
      let (value, registrar) = storage.withLock { header in
        (header.state.value, tracksObservation ? header.state.registrarForRead() : nil)
      }
      if let registrar { ObservationSupport.reportAccess(self, registrar) }
      return value
    }
    set {
      precondition(
        !PassFrame.isModifying(storage.objectID),
        "Property.modify: the closure must change its inout argument, not set the property itself"
      )
      // The old value leaves the lock inside the update, so its deinit runs outside.
      let set = commit { state in state.replace(with: newValue) }!
      // A persisted property stores the value before any handler runs (one load and a
      // branch for the others).
      if let persistence { persistence.wrote(set.update) }
      // Alive until the pass ends, even inlined into a caller that drops its last reference
      // (a handler may release it). A closure around `publish` costs a call frame per set.
      defer { withExtendedLifetime(self) {} }
      publish(set.update, from: set.snapshot, turnTaken: set.turnTaken)
    }
  }

  /// Calls `handler` with the current value at once, then with every later value.
  ///
  /// - Parameter handler: Called synchronously on the setting thread, after the handlers
  ///   registered before it.
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  @inlinable @_disfavoredOverload
  public func observe(_ handler: @escaping (T) -> Void) -> any Disposable {
    register(replay: true, handler)
  }

  /// Calls `handler` with the current value at once, then with every later value, as
  /// ``observe(_:)`` does; in a debug build inside ObservableKitTesting's `withLeakCheck`,
  /// the subscription is named by `fileID:line`, the call site.
  @inlinable
  public func observe(
    _ handler: @escaping (T) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(register(replay: true, handler), fileID, line)
  }

  /// Calls `handler` with every value set from now on, without the current value.
  ///
  /// The same as ``observe(_:)`` minus the replay: a value that was already current when
  /// this method was called is never delivered, even if a set races with the call.
  @inlinable @_disfavoredOverload
  public func observeChanges(_ handler: @escaping (T) -> Void) -> any Disposable {
    register(replay: false, handler)
  }

  /// Calls `handler` with every value set from now on, as ``observeChanges(_:)`` does; in a
  /// debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is named by
  /// `fileID:line`, the call site.
  @inlinable
  public func observeChanges(
    _ handler: @escaping (T) -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(register(replay: false, handler), fileID, line)
  }

  /// Calls `handler` with the owner and the current value at once, then with every later
  /// value, for as long as `owner` is alive, so the handler needs no `[weak self]`.
  ///
  /// `owner` is held weakly and passed to the handler strongly. Once its deinit has begun,
  /// nothing is delivered and the subscription no longer counts in ``observerCount``. You
  /// need not keep the returned disposable. Once the owner has gone, the handler is released
  /// at the latest at the property's next set, count, or owner-bound subscription (a sweep
  /// of dead owners runs whenever they have doubled). Once the subscription ends, the owner
  /// keeps nothing of it alive.
  @discardableResult
  public func observe<Owner: AnyObject>(
    with owner: Owner,
    _ handler: @escaping (Owner, T) -> Void
  ) -> any Disposable {
    register(owner: owner, replay: true) { owner, update in
      // register() passes the owner it checked alive for this call.
      handler(unsafeDowncast(owner!, to: Owner.self), update.value)
    }
  }

  /// The subscription behind ``observe(_:)`` and ``observeChanges(_:)``: one
  /// ``PropertySubscriber``, which is the context of the closure the storage keeps, and a
  /// token that is a value (``InlineSubscription``). The handler runs holding the delivery
  /// turn, only with versions newer than it has seen.
  @inlinable
  func register(replay: Bool, _ handler: @escaping (T) -> Void) -> any Disposable {
    let subscriber = PropertySubscriber(ValueCall(handler: handler))
    let (id, current) = storage.add(
      { _ in
        { update in
          if subscriber.advance(to: update.version) { subscriber.call.handler(update.value) }
        }
      },
      reading: { state, _ -> PropertyUpdate<T>? in
        if replay { return state.current }
        subscriber.lastVersion = state.version
        return nil
      }
    )
    if let current {
      self.replay(current) { update in
        if subscriber.advance(to: update.version) { subscriber.call.handler(update.value) }
      }
    }
    return InlineSubscription(storage: storage, id: id)
  }

  /// The subscription path behind every owner-bound way of observing a property.
  ///
  /// - Parameters:
  ///   - owner: If given, held weakly: the subscription is counted and delivered to only
  ///     while it is alive, and `handler` receives it strongly.
  ///   - replay: Whether to deliver the current value before returning.
  ///   - handler: Receives the owner (nil without one) and each set, already filtered: it
  ///     runs holding the turn, only with versions newer than it has seen.
  @inlinable
  func register(
    owner: AnyObject? = nil,
    replay: Bool,
    handler: @escaping (AnyObject?, PropertyUpdate<T>) -> Void
  ) -> any Disposable {
    let link = owner.map(OwnerLink.init)
    var registered: Storage.Handler?
    var made: PropertySubscriber<SubscriberCall>?
    let storage = storage
    // Local functions, not closures in constants: passed only as non-escaping arguments,
    // they capture `made` and `registered` without boxing them.
    func makeHandler(_ id: UInt64) -> Storage.Handler {
      // One object holds the version, the owner check and the handler; the closure the
      // storage keeps captures only it, so it is the closure's context.
      let subscriber = PropertySubscriber(SubscriberCall(owner: link, storage: storage, id: id, handler: handler))
      made = subscriber
      let deliver: Storage.Handler = { update in
        let call = subscriber.call
        guard let link = call.owner else {
          if subscriber.advance(to: update.version) { call.handler(nil, update) }
          return
        }
        // The owner first: once it has gone, the subscription ends and hears nothing.
        guard let owner = link.owner else {
          call.storage.remove(call.id)
          return
        }
        if subscriber.advance(to: update.version) { call.handler(owner, update) }
      }
      registered = deliver
      return deliver
    }
    func read(_ state: inout PropertyState<T>, _: UInt64) -> PropertyUpdate<T>? {
      if replay { return state.current }
      made!.lastVersion = state.version
      return nil
    }
    // The storage keeps the owner's link beside the subscription: it counts, unsubscribes
    // and sweeps it (see `OwnerLink`); the token is a value either way.
    let (id, current) =
      if let link {
        storage.addOwnerBound({ id in (makeHandler(id), link) }, reading: read)
      } else {
        storage.add(makeHandler, reading: read)
      }
    if let current {
      self.replay(current, with: registered!)
    }
    return InlineSubscription(storage: storage, id: id)
  }

  /// What a plain subscriber calls: the handler `observe` received.
  @usableFromInline
  struct ValueCall {
    @usableFromInline let handler: (T) -> Void

    @inlinable
    init(handler: @escaping (T) -> Void) {
      self.handler = handler
    }
  }

  /// What an owner-bound subscriber calls: the owner, held weakly, the subscription to end
  /// once it has gone, and the handler.
  @usableFromInline
  struct SubscriberCall {
    @usableFromInline let owner: OwnerLink?
    @usableFromInline let storage: Storage
    @usableFromInline let id: UInt64
    @usableFromInline let handler: (AnyObject?, PropertyUpdate<T>) -> Void

    @inlinable
    init(owner: OwnerLink?, storage: Storage, id: UInt64, handler: @escaping (AnyObject?, PropertyUpdate<T>) -> Void) {
      self.owner = owner
      self.storage = storage
      self.id = id
      self.handler = handler
    }
  }

  /// A change made under the lock: the update, the snapshot its delivery starts from, taken
  /// in the same critical section, and whether the turn was taken as the lock was let go of.
  @usableFromInline
  struct Committed {
    @usableFromInline let update: PropertyUpdate<T>
    @usableFromInline let snapshot: Storage.Snapshot
    @usableFromInline let turnTaken: Bool

    @inlinable
    init(_ made: ((PropertyUpdate<T>, Storage.Snapshot), turnTaken: Bool)) {
      update = made.0.0
      snapshot = made.0.1
      turnTaken = made.turnTaken
    }
  }

  /// Applies `change` to the state under the lock and returns the update with the snapshot
  /// its delivery starts from; nil if `change` declined. Once a read has made the registrar
  /// (of a property that tracks Observation), the change is wrapped in Observation's
  /// `withMutation`, outside the lock (`commitObserved`). Otherwise the critical section
  /// that makes the change lets go of the lock taking the turn if it is free
  /// (``ObserverStorage/withLockTryingTurn(_:)``).
  @inlinable
  func commit(_ change: (inout PropertyState<T>) -> PropertyUpdate<T>?) -> Committed? {
    // Only a flag leaves the lock when a registrar exists, so the usual set, with none, takes
    // the same path as an untracked property's (an optional registrar beside the result cost
    // a retain and a release of nil per set, and an enum carrying it more instructions).
    var observed = false
    let (made, turnTaken) = storage.withLockTryingTurn { header -> ((PropertyUpdate<T>, Storage.Snapshot)?, tryTurn: Bool) in
      if tracksObservation, header.state.registrar != nil {
        observed = true
        return (nil, false)
      }
      guard let update = change(&header.state) else { return (nil, false) }
      return ((update, storage.snapshotLocked(header)), true)
    }
    if let made { return Committed((made, turnTaken)) }
    return observed ? commitObserved(change) : nil
  }

  /// `commit` once a read has made the registrar: the change is made inside Observation's
  /// `withMutation`, whose `willSet` and `didSet` run outside our lock.
  ///
  /// Invariant where the lock is dropped: between finding the registrar and taking the lock
  /// again inside `withMutation` (whose `willSet` runs tracking callbacks, user code), this
  /// call holds nothing of the state, and our lock is free (Observation holds its own lock
  /// while the callbacks run). `change` is applied to the state as it is then, so a set made
  /// meanwhile is ordered before this one, and a `modify` re-checks its version.
  @inlinable @inline(never)
  func commitObserved(_ change: (inout PropertyState<T>) -> PropertyUpdate<T>?) -> Committed? {
    // The turn is not taken here but by `publish`, once `withMutation` has returned: no
    // `didSet` callback runs while this thread holds it.
    func apply() -> Committed? {
      let (made, _) = storage.withLockTryingTurn { header -> ((PropertyUpdate<T>, Storage.Snapshot)?, tryTurn: Bool) in
        guard let update = change(&header.state) else { return (nil, false) }
        return ((update, storage.snapshotLocked(header)), false)
      }
      return made.map { Committed(($0, turnTaken: false)) }
    }
    // Made by a read and never cleared, so it is there: `commit` saw it.
    guard let registrar = storage.withLock({ $0.state.registrar }) else { return apply() }
    return ObservationSupport.reportMutation(of: self, registrar, apply)
  }

  /// The number of live subscriptions.
  @inlinable public var observerCount: Int { storage.count }

  /// Whether the property has at least one live subscription.
  @inlinable public var isObserved: Bool { observerCount > 0 }
}

extension Property: CustomDebugStringConvertible {
  /// The property's type, current value and live observer count, for example
  /// `Property<Int>(value: 5, observers: 1)`. Reading it does not register an Observation
  /// access.
  public var debugDescription: String {
    let current = storage.withLock { $0.state.value }
    return "Property<\(T.self)>(value: \(String(reflecting: current)), observers: \(observerCount))"
  }
}


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

/// A shared property's owner-bound deliveries keep updates waiting for an actor.
extension PropertyUpdate: Sendable where T: Sendable {}

/// The part of a property guarded by its storage lock.
@usableFromInline
struct PropertyState<T> {
  @usableFromInline var value: T
  /// Advances with every set; the initial value is version 1.
  @usableFromInline var version: UInt64 = 1
  /// The Observation registrar, made by the first read (see `ObservationSupport`).
  @usableFromInline var registrar: (any AnyObject & Sendable)?

  @inlinable
  init(value: T) {
    self.value = value
  }

  /// The registrar, made now if this is the first read.
  @inlinable
  mutating func registrarForRead() -> (any AnyObject & Sendable)? {
    if registrar == nil { registrar = ObservationSupport.makeRegistrar(for: T.self) }
    return registrar
  }

  @inlinable
  mutating func replace(with newValue: T) -> PropertyUpdate<T> {
    version += 1
    let oldValue = value
    value = newValue
    return PropertyUpdate(version: version, value: newValue, oldValue: oldValue)
  }

  /// The current value as an update, for replays.
  @inlinable
  var current: PropertyUpdate<T> {
    PropertyUpdate(version: version, value: value, oldValue: value)
  }
}
