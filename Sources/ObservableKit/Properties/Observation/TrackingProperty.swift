#if canImport(Observation)
import Observation

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ReadOnlyProperty {
  /// Creates a read-only property computed by `read` from anything Swift Observation
  /// tracks: the properties of `@Observable` models, ``Property`` values, or other tracking
  /// properties.
  ///
  /// ```swift
  /// @MainActor final class ProfileViewModel {
  ///   let fullName: ReadOnlyProperty<String>
  ///   init(person: Person) {                      // Person is @Observable
  ///     fullName = ReadOnlyProperty(tracking: { person.first + " " + person.last })
  ///   }
  /// }
  /// viewModel.fullName.observe { label.text = $0 }.disposed(by: bag)
  /// ```
  ///
  /// To track the object that keeps the property (a view model tracking itself), use
  /// ``init(isolation:tracking:_:)``, `ReadOnlyProperty(tracking: self) { $0.query }`: it
  /// holds the owner weakly, where `{ self.query }` here would be a retain cycle.
  ///
  /// It has everything a ``ReadOnlyProperty`` has: ``value``, replay on ``observe(_:)``,
  /// ``observeChanges(_:)``, the operators, owners and `values`.
  ///
  /// ## When it computes, and where
  /// - ``value`` calls `read` now, so it is always current (and reading it inside
  ///   `withObservationTracking` or a SwiftUI body tracks what `read` reads).
  /// - The first observer starts tracking: `read` runs inside `withObservationTracking`
  ///   and the observer hears that value at once, before `observe` returns.
  /// - A change to anything that run read makes the property recompute and notify every
  ///   observer with the new value. The recompute runs on the actor the property was made
  ///   on (`isolation`, by default the caller's: the main actor for UI code), as a job of
  ///   its own after the code that made the change, so it reads the value after the change
  ///   landed. Changes made in one turn of that actor are read once, together; each
  ///   recompute reads what is current, so observers never hear an older value after a newer
  ///   one and always end on the current one.
  /// - Every recompute notifies, as every set of a ``Property`` does; use
  ///   ``PropertySource/removeDuplicates()`` to skip equal values.
  /// - Disposing the last observer stops tracking: the model is no longer retained by its
  ///   own registrar's callback, and no recompute runs. Observing again starts tracking
  ///   again, with the value current then. An owner-bound observer (`observe(with:_:)`)
  ///   counts until it is disposed, as for any derived property: at the next recompute
  ///   after the owner has gone, or when a sweep of dead owners finds it first. Add its
  ///   token to the owner's ``DisposeBag`` to end it at the owner's deinit.
  /// - A subscription keeps tracking going even when no copy of the property is kept.
  /// - Observation cannot remove a subscription: after the last dispose, the model's
  ///   registrar keeps one small callback (it holds neither `read` nor the observers) until
  ///   the next change. A property has at most one such subscription, however often it is
  ///   observed and disposed.
  /// - An observer that arrives while a recompute is on its way hears the current value at
  ///   once (a replay gives what ``value`` reads, never the value from before the change),
  ///   and may hear it again from that recompute; the observers already there hear it then
  ///   too.
  ///
  /// ## Rules
  /// - It must be made on an actor: in nonisolated code the call does not compile ("call to
  ///   actor-isolated initializer … in a synchronous nonisolated context"). Observation
  ///   reports a change before it lands (`willSet`), possibly on another thread, so the
  ///   recompute needs an isolation to run in afterwards; mark the code `@MainActor`, or
  ///   make the property inside an actor. An actor's synchronous `init` is not isolated to
  ///   the actor, so an actor makes it in a method. The property holds its actor weakly:
  ///   an actor that stores it still deinitializes, and nothing is recomputed after that.
  /// - Change what `read` reads on that same actor (the compiler ensures it for a
  ///   `@MainActor` model). Observation tells of a change made on another thread before
  ///   that thread stores it, and a recompute that runs in between would read the old
  ///   value and miss the change.
  /// - `read` runs on `isolation` only, so it may read that actor's state.
  ///
  /// - Parameters:
  ///   - isolation: The actor the recomputes and the observers run on; by default the
  ///     caller's.
  ///   - read: Computes the value from Observation-tracked reads. It should not change
  ///     what it reads.
  @inlinable
  public init(
    isolation: isolated any Actor = #isolation,
    tracking read: @escaping () -> Value
  ) {
    let tracker = ObservationTracker(read: read, isolation: isolation)
    self.init(
      value: { read() },
      observe: { handler in tracker.observe(replay: true, handler) },
      observeChanges: { handler in tracker.observe(replay: false, handler) }
    )
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ReadOnlyProperty {
  /// Creates a read-only property computed by `read` from `owner`, which it holds weakly:
  /// the form for a view model that tracks its own `@Observable` state, with no retain
  /// cycle even when the property and its subscriptions live in the owner's own bag.
  ///
  /// ```swift
  /// @MainActor @Observable final class SearchModel {
  ///   var query = ""
  ///   @ObservationIgnored var heading: [String] = []
  ///   @ObservationIgnored let bag = DisposeBag()
  ///
  ///   init() {
  ///     ReadOnlyProperty(tracking: self) { $0.query.uppercased() }
  ///       .observe(with: self) { model, title in model.heading.append(title) }
  ///       .disposed(by: bag)
  ///   }
  /// }
  /// ```
  ///
  /// `ReadOnlyProperty(tracking: { self.query })` would hold `self` strongly from a
  /// subscription `self` holds: a cycle, and the model would never deinitialize.
  ///
  /// It is ``init(isolation:tracking:)`` otherwise: the same rules, recomputes and replays.
  /// `read` is called with the owner, strongly for the call only. Once the owner has gone,
  /// ``value`` keeps the last value read and nothing is recomputed (nothing it read can
  /// change any more).
  ///
  /// - Parameters:
  ///   - isolation: The actor the recomputes and the observers run on; by default the
  ///     caller's.
  ///   - owner: The object `read` reads, held weakly.
  ///   - read: Computes the value from Observation-tracked reads of `owner`.
  public init<Owner: AnyObject>(
    isolation: isolated any Actor = #isolation,
    tracking owner: Owner,
    _ read: @escaping (Owner) -> Value
  ) {
    let source = TrackedOwner(owner, read)
    self.init(isolation: isolation, tracking: { source.read() })
  }
}

/// The owner of an owner-bound tracking property, held weakly, and the last value read from
/// it, returned once it has gone. Confined, like the property, to the actor that made it.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class TrackedOwner<Owner: AnyObject, Value> {
  private weak var owner: Owner?
  private let compute: (Owner) -> Value
  private var last: Value

  init(_ owner: Owner, _ compute: @escaping (Owner) -> Value) {
    self.owner = owner
    self.compute = compute
    last = compute(owner)
  }

  func read() -> Value {
    guard let owner else { return last }
    last = compute(owner)
    return last
  }
}

/// The machinery behind `ReadOnlyProperty(tracking:)`. It lives with the actor that made it:
/// `read`, `output` and the calls to them run only on `isolation`. What other threads touch
/// (Observation's change callback, `dispose()`) is in `session`, under its lock.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@usableFromInline
final class ObservationTracker<Value> {
  @usableFromInline let read: () -> Value
  /// The actor this tracker belongs to. Another actor is held weakly: an actor that keeps
  /// the property in a stored property would otherwise never deinitialize. The main actor
  /// lives for the whole process and needs no weak reference (whose side table would then
  /// never be freed either).
  @usableFromInline let isolation: WeakReference?
  @usableFromInline let session = TrackingSession()
  /// The property that holds the last computed value and the observers; made by the first
  /// observer.
  @usableFromInline var output: Property<Value>?

  @inlinable
  init(read: @escaping () -> Value, isolation: any Actor) {
    self.read = read
    self.isolation = isolation === MainActor.shared ? nil : WeakReference(isolation)
  }

  /// Registers a handler, starting tracking for the first one. Runs on `isolation`: the
  /// `ReadOnlyProperty` that calls it is confined to it.
  @inlinable
  func observe(replay: Bool, _ handler: @escaping (Value) -> Void) -> any Disposable {
    // Only this actor runs recomputes and starts, so nothing below races with them.
    let start = session.addObserver(makeRecompute: makeRecompute)
    let output: Property<Value>
    if let existing = self.output {
      output = existing
      switch start {
      case .none: break
      // Nothing the last run read has changed since (its subscription has not fired), or
      // a recompute is on its way: read without registering again. For a later observer,
      // the observers already there hear the new value now, and again from the recompute
      // (every recompute notifies): never an older value after a newer one.
      case .read: output.value = read()
      case .track: output.value = track()
      }
    } else {
      output = Property(track(), observationTracking: false)
      self.output = output
    }
    let token = replay ? output.observe(handler) : output.observeChanges(handler)
    return TrackingSubscription(token: token, session: session)
  }

  /// Runs `read` inside `withObservationTracking`; the change callback asks for a
  /// recompute.
  @inlinable
  func track() -> Value {
    let session = session
    return withObservationTracking(read, onChange: { session.changed() })
  }

  /// The job one change callback enqueues: on `isolation`, after the code that made the
  /// change, it reads the new value, tracks again and notifies.
  @inlinable
  func recompute() {
    guard session.beginRecompute(), let output else { return }
    output.value = track()
  }

  /// The closure a change callback calls to enqueue a recompute on `isolation`. The session
  /// holds it only while it has observers (it holds this tracker, and through `read` the
  /// model, whose registrar holds the change callback: the last dispose breaks that cycle).
  @inlinable
  func makeRecompute() -> @Sendable () -> Void {
    // The closure holds the tracker strongly, so that tracking goes on while observed even
    // once every copy of the property is gone; it crosses threads as an unchecked reference.
    // Invariant: it is never dereferenced here. The job holds it weakly (a job still waiting
    // when the session ends keeps nothing alive) and loads it only in `TrackingJob.run`,
    // isolated to `isolation`, the actor this tracker belongs to.
    nonisolated(unsafe) let tracker = self
    let reference = WeakReference(self)
    let isolation = isolation
    return {
      _ = tracker
      let job: @Sendable () -> Void = {
        guard let object = reference.object else { return }
        unsafeDowncast(object, to: ObservationTracker<Value>.self).recompute()
      }
      guard let isolation else {
        // Straight onto the main actor: no hop through the global executor.
        Task { @MainActor in job() }
        return
      }
      // An actor that has gone has taken the property, and all confined to it, along.
      guard let actor = isolation.object else { return }
      Task { await TrackingJob.run(on: actor as! any Actor, job) }  // made from an actor in init
    }
  }
}

/// Runs a recompute on the tracker's actor.
@usableFromInline
enum TrackingJob {
  @inlinable
  static func run(on actor: isolated any Actor, _ body: () -> Void) {
    body()
  }
}

/// The part of a tracker that any thread may touch: how many observers it has, whether a
/// tracking subscription waits in the model's registrar, and whether a recompute is on its
/// way.
///
/// At most one subscription waits at a time: a start reuses the waiting one, since nothing
/// it tracks has changed, and leaves registering to a recompute on its way. Observation has
/// no public way to remove a subscription, so observing and disposing again and again
/// without a change must not add one each time.
@usableFromInline
final class TrackingSession: Sendable {
  /// What the first observer of a session must do.
  @usableFromInline
  enum Start {
    /// Not the first observer, and no change waits for its recompute: the value is current.
    case none
    /// Read the value; a subscription already waits, or a recompute will make one (also for
    /// a later observer while a recompute is on its way).
    case read
    /// Read the value and register.
    case track
  }

  private struct State: Sendable {
    var observers = 0
    /// A subscription waits for a change: its callback has not fired.
    var armed = false
    /// A recompute is enqueued and has not begun: further changes join it.
    var pending = false
    /// Enqueues a recompute; set while the session has observers.
    var recompute: (@Sendable () -> Void)?
  }

  private let state = Locked(State())

  @usableFromInline
  init() {}

  /// Counts an observer in; the first of a session gets the recompute closure from
  /// `makeRecompute` (which runs no user code) and learns whether to register.
  @usableFromInline
  func addObserver(makeRecompute: () -> @Sendable () -> Void) -> Start {
    state.withLock { state in
      state.observers += 1
      // A later observer that comes while a recompute is on its way (a change has been
      // reported, the job has not run) would be replayed the value from before the change:
      // it reads now instead, so that a replay gives what `value` reads.
      guard state.observers == 1 else { return state.pending ? .read : .none }
      state.recompute = makeRecompute()
      if state.armed || state.pending { return .read }
      state.armed = true  // before registering: a callback that fires at once clears it
      return .track
    }
  }

  /// Counts an observer out; the last one ends the session and releases the recompute
  /// closure (outside the lock: it may hold the last reference to the tracker).
  @usableFromInline
  func removeObserver() {
    let released = state.withLock { state -> (@Sendable () -> Void)? in
      state.observers -= 1
      guard state.observers == 0 else { return nil }
      defer { state.recompute = nil }
      return state.recompute
    }
    withExtendedLifetime(released) {}
  }

  /// Observation's change callback: on the thread making the change, before it lands.
  /// Enqueues one recompute unless one is already on its way or nobody observes.
  @usableFromInline
  func changed() {
    let recompute = state.withLock { state -> (@Sendable () -> Void)? in
      state.armed = false
      guard !state.pending, let recompute = state.recompute else { return nil }
      state.pending = true
      return recompute
    }
    recompute?()
  }

  /// Called by the job on the tracker's actor: whether to recompute and register again
  /// (someone observes). From here on, a change enqueues a new job.
  @usableFromInline
  func beginRecompute() -> Bool {
    state.withLock { state in
      state.pending = false
      guard state.observers > 0 else { return false }
      state.armed = true
      return true
    }
  }
}

/// One observer of a tracking property: disposing it ends the subscription and counts it
/// out of the session, once, from any thread.
@usableFromInline
final class TrackingSubscription: Disposable {
  private let token: any Disposable
  private let session: TrackingSession
  private let disposed = Locked(false)

  @usableFromInline
  init(token: any Disposable, session: TrackingSession) {
    self.token = token
    self.session = session
  }

  @usableFromInline
  func dispose() {
    let first = disposed.withLock { disposed in
      defer { disposed = true }
      return !disposed
    }
    guard first else { return }
    token.dispose()
    session.removeObserver()
  }

  @usableFromInline
  var isDisposed: Bool { disposed.withLock { $0 } }
}
#endif
