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
  ///   counts until it is disposed, as for any derived property: when its owner
  ///   deinitializes on Apple platforms, elsewhere at the next recompute after the owner has
  ///   gone. Add its token to the owner's ``DisposeBag`` to end it at the owner's deinit
  ///   everywhere.
  /// - A subscription keeps tracking going even when no copy of the property is kept.
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

/// The machinery behind `ReadOnlyProperty(tracking:)`. It lives with the actor that made it:
/// `read`, `output` and the calls to them run only on `isolation`. What other threads touch
/// (Observation's change callback, `dispose()`) is in `session`, under its lock.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class ObservationTracker<Value> {
  let read: () -> Value
  /// The actor this tracker belongs to. Another actor is held weakly: an actor that keeps
  /// the property in a stored property would otherwise never deinitialize. The main actor
  /// lives for the whole process and needs no weak reference (whose side table would then
  /// never be freed either).
  let isolation: WeakReference?
  let session = TrackingSession()
  /// The property that holds the last computed value and the observers; replaced by each
  /// start, so that a restart never hears an old session's values.
  var output: Property<Value>?

  init(read: @escaping () -> Value, isolation: any Actor) {
    self.read = read
    self.isolation = isolation === MainActor.shared ? nil : WeakReference(isolation)
  }

  /// Registers a handler, starting tracking for the first one. Runs on `isolation`: the
  /// `ReadOnlyProperty` that calls it is confined to it.
  func observe(replay: Bool, _ handler: @escaping (Value) -> Void) -> any Disposable {
    // Only this actor runs recomputes, so nothing below races with one.
    let (starts, generation) = session.addObserver(recompute: makeRecompute())
    let output: Property<Value>
    if starts || self.output == nil {
      output = Property(track(generation), observationTracking: false)
      self.output = output
    } else {
      output = self.output!
    }
    let token = replay ? output.observe(handler) : output.observeChanges(handler)
    return TrackingSubscription(token: token, session: session)
  }

  /// Runs `read` inside `withObservationTracking`; the change callback asks for a recompute
  /// of this session.
  private func track(_ generation: UInt64) -> Value {
    let session = session
    return withObservationTracking(read, onChange: { session.changed(generation) })
  }

  /// The job one change callback enqueues: on `isolation`, after the code that made the
  /// change, it reads the new value, tracks again and notifies.
  private func recompute(_ generation: UInt64) {
    guard session.beginRecompute(generation), let output else { return }
    output.value = track(generation)
  }

  /// The closure a change callback calls to enqueue a recompute on `isolation`. The session
  /// holds it only while it has observers (it holds this tracker, and through `read` the
  /// model, whose registrar holds the change callback: stopping breaks that cycle).
  private func makeRecompute() -> @Sendable (UInt64) -> Void {
    // The closure holds the tracker strongly, so that tracking goes on while observed even
    // once every copy of the property is gone; it crosses threads as an unchecked reference.
    // Invariant: it is never dereferenced here. The job holds it weakly (a job still waiting
    // when the session ends keeps nothing alive) and loads it only in `TrackingJob.run`,
    // isolated to `isolation`, the actor this tracker belongs to.
    nonisolated(unsafe) let tracker = self
    let reference = WeakReference(self)
    let isolation = isolation
    return { generation in
      _ = tracker
      // An actor that has gone has taken the property, and everything confined to it, along.
      let actor: any Actor
      if let isolation {
        guard let object = isolation.object else { return }
        actor = object as! any Actor  // made from an actor in init
      } else {
        actor = MainActor.shared
      }
      Task {
        await TrackingJob.run(on: actor) {
          guard let object = reference.object else { return }
          unsafeDowncast(object, to: ObservationTracker<Value>.self).recompute(generation)
        }
      }
    }
  }
}

/// Runs a recompute on the tracker's actor.
private enum TrackingJob {
  static func run(on actor: isolated any Actor, _ body: () -> Void) {
    body()
  }
}

/// The part of a tracker that any thread may touch: how many observers it has, which
/// tracking session is current, and whether a recompute is already on its way.
private final class TrackingSession: Sendable {
  private struct State: Sendable {
    var observers = 0
    /// Changes with every start and stop, so a callback or job of an earlier session does
    /// nothing.
    var generation: UInt64 = 0
    /// A recompute is enqueued and has not begun: further changes join it.
    var pending = false
    /// Enqueues a recompute; set while the session has observers.
    var recompute: (@Sendable (UInt64) -> Void)?
  }

  private let state = Locked(State())

  /// Counts an observer in; returns whether it starts a new session, and the session's
  /// generation.
  func addObserver(recompute: @escaping @Sendable (UInt64) -> Void) -> (starts: Bool, generation: UInt64) {
    state.withLock { state in
      state.observers += 1
      guard state.observers == 1 else { return (false, state.generation) }
      state.generation &+= 1
      state.pending = false
      state.recompute = recompute
      return (true, state.generation)
    }
  }

  /// Counts an observer out; the last one ends the session and releases the recompute
  /// closure (outside the lock: it may hold the last reference to the tracker).
  func removeObserver() {
    let released = state.withLock { state -> (@Sendable (UInt64) -> Void)? in
      state.observers -= 1
      guard state.observers == 0 else { return nil }
      state.generation &+= 1
      state.pending = false
      defer { state.recompute = nil }
      return state.recompute
    }
    withExtendedLifetime(released) {}
  }

  /// Observation's change callback: on the thread making the change, before it lands.
  /// Enqueues one recompute unless one is already on its way.
  func changed(_ generation: UInt64) {
    let recompute = state.withLock { state -> (@Sendable (UInt64) -> Void)? in
      guard generation == state.generation, !state.pending, let recompute = state.recompute else {
        return nil
      }
      state.pending = true
      return recompute
    }
    recompute?(generation)
  }

  /// Called by the job on the tracker's actor: whether it should recompute (its session is
  /// still current). From here on, a change enqueues a new job.
  func beginRecompute(_ generation: UInt64) -> Bool {
    state.withLock { state in
      guard generation == state.generation else { return false }
      state.pending = false
      return state.observers > 0
    }
  }
}

/// One observer of a tracking property: disposing it ends the registration and counts it
/// out of the session, once, from any thread.
private final class TrackingSubscription: Disposable {
  private let token: any Disposable
  private let session: TrackingSession
  private let disposed = Locked(false)

  init(token: any Disposable, session: TrackingSession) {
    self.token = token
    self.session = session
  }

  func dispose() {
    let first = disposed.withLock { disposed in
      defer { disposed = true }
      return !disposed
    }
    guard first else { return }
    token.dispose()
    session.removeObserver()
  }

  var isDisposed: Bool { disposed.withLock { $0 } }
}
#endif
