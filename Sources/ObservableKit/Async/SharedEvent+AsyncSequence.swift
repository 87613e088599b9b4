/// When a ``SharedEvent`` made from an async sequence starts iterating it.
public enum SharedEventStart: Sendable {
  /// When the first observer registers (the default): nothing is iterated for nobody.
  case onFirstObserver
  /// When the event is made, observed or not. Values that come before the first observer
  /// reach nobody, except through `replay:`.
  case immediately
}

/// When a ``SharedEvent`` made from an async sequence stops iterating it.
public enum SharedEventStop: Sendable {
  /// When the last observer goes (the default): the iteration's task is cancelled, and the
  /// next first observer starts a new iteration, with a new iterator of the sequence.
  case afterLastObserver
  /// Never: the iteration runs until the sequence ends or the event deinitializes.
  case never
}

/// How the async sequence of a ``SharedEvent`` ended.
public enum SharedEventEnd: Sendable {
  /// The sequence returned nil.
  case finished
  /// The sequence threw `error`.
  case failed(any Error)

  /// The error the sequence threw, if it threw.
  public var error: (any Error)? {
    if case .failed(let error) = self { return error }
    return nil
  }
}

extension SharedEvent {
  /// Creates an event that delivers the elements of `sequence` to its observers.
  ///
  /// ```swift
  /// let prices = SharedEvent(prices(for: symbol))      // any AsyncSequence of Double, Sendable
  /// let lazy = SharedEvent(ticks, start: .onFirstObserver, stop: .afterLastObserver)
  /// ```
  ///
  /// One task iterates the sequence and notifies the observers of each element, as
  /// ``notifyObservers(_:)`` does: every observer registered when an element comes hears
  /// it, in order, through the family's usual delivery (see ``SharedEvent``).
  ///
  /// - Parameters:
  ///   - sequence: Iterated by one task at a time; with `stop: .afterLastObserver` it is
  ///     iterated again from a new iterator after each stop, so give a sequence that can be
  ///     iterated more than once (an `AsyncStream` can not: its second iteration ends at
  ///     once, and so does the event).
  ///   - replay: How many of the last elements each new observer hears first; see
  ///     ``init(replay:)``. The replay is emptied at the end.
  ///   - scope: ``ReplayScope/forever`` (the default): the replay outlives a stop; or
  ///     ``ReplayScope/whileObserved``: it is emptied when the last observer ends, and an
  ///     element that comes while nobody observes (`start: .immediately`, `stop: .never`) is
  ///     not kept. See ``ObservableEvent/init(replay:scope:)``.
  ///   - start: ``SharedEventStart/onFirstObserver`` (the default) or
  ///     ``SharedEventStart/immediately``.
  ///   - stop: ``SharedEventStop/afterLastObserver`` (the default) or
  ///     ``SharedEventStop/never``. A restart waits for the stopped iteration's task to
  ///     return, so two iterations never deliver at once.
  ///
  /// When the sequence ends, or throws, the event ends: ``isFinished`` becomes true, every
  /// subscription ends (releasing its handler and operator chain), the ``onFinish(_:)``
  /// handlers hear how it ended, and nothing is delivered any more, not even to an observer
  /// that registers later (its `observe` returns a disposed subscription). A thrown error is
  /// reported as ``SharedEventEnd/failed(_:)``; use ``init(_:replay:scope:start:stop:onError:)``
  /// to handle it where the event is made. The end of an iteration that was stopped because
  /// the last observer went is not the sequence's end, and does not end the event.
  public convenience init<Sequence: AsyncSequence & Sendable>(
    _ sequence: Sequence,
    replay: Int = 0,
    scope: ReplayScope = .forever,
    start: SharedEventStart = .onFirstObserver,
    stop: SharedEventStop = .afterLastObserver
  ) where Sequence.Element == T {
    let source = AsyncEventSource(sequence, start: start, stop: stop, onError: nil)
    self.init(replay: replay, scope: scope, source: source)
    source.attach(to: self)
  }

  /// Creates an event that delivers the elements of a throwing `sequence`, and calls
  /// `onError` with the error that ends it; see ``init(_:replay:scope:start:stop:)``.
  ///
  /// `onError` runs on the iterating task, before the event's ``onFinish(_:)`` handlers hear
  /// ``SharedEventEnd/failed(_:)``.
  public convenience init<Sequence: AsyncSequence & Sendable>(
    _ sequence: Sequence,
    replay: Int = 0,
    scope: ReplayScope = .forever,
    start: SharedEventStart = .onFirstObserver,
    stop: SharedEventStop = .afterLastObserver,
    onError: @escaping @Sendable (any Error) -> Void
  ) where Sequence.Element == T {
    let source = AsyncEventSource(sequence, start: start, stop: stop, onError: onError)
    self.init(replay: replay, scope: scope, source: source)
    source.attach(to: self)
  }

  /// Whether the async sequence this event delivers has ended; always false for an event
  /// not made from a sequence.
  public var isFinished: Bool { iteration?.end != nil }

  /// Registers `handler` to hear how the async sequence this event delivers ended: once,
  /// when it ends, or at once if it has ended already. The handler keeps the isolation of
  /// the caller, as for ``SharedEventSource/observe(_:fileID:line:)``.
  ///
  /// The end comes after every value: a handler that runs on the notifying thread has heard
  /// the last value before the end is announced. An event not made from a sequence never
  /// ends: its handler is never called.
  @discardableResult
  public func onFinish(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (SharedEventEnd) -> Void
  ) -> any Disposable {
    guard let iteration else {
      let never = DisposableSlot()
      never.dispose()
      return never
    }
    return iteration.ended.observe(handler)
  }

  /// The iteration that drives this event, if it was made from a sequence.
  var iteration: AsyncEventSource<T>? { source as? AsyncEventSource<T> }
}

/// The iteration behind an event made from an async sequence: when it starts and stops,
/// how many observers it serves, and how it ends.
///
/// Invariants (the lock is `state`'s):
/// - One iteration is current at a time; each has a generation. A stop takes the current
///   task out under the lock and cancels it after the lock (cancellation runs the
///   sequence's handlers); a start under the lock makes a task that first waits for the
///   stopped one, so no two iterations ever deliver at once.
/// - The sequence's end counts only if its iteration is still the current one when it takes
///   the lock: a stop that took the lock first wins, and the next first observer starts
///   again. Once the end is recorded, nothing starts again.
/// - A subscription is made before it is counted, and, if the count finds the event ended,
///   it is ended again: the end removes every subscription after recording itself, so none
///   made around the end survives it.
/// - An owner-bound subscription (one made inside `ExternalOwner.subscribe`, directly or through
///   an operator chain) is listed in `watched`, weakly, with its owners. While the iteration
///   runs and the list is not empty, one sweeper task checks the owners every
///   ``sweepInterval`` and disposes the subscriptions whose owner has gone, which uncounts
///   them and may stop the iteration. The sweeper is cancelled when the iteration stops or
///   ends, and ends by itself once the list is empty.
@usableFromInline
final class AsyncEventSource<T: Sendable>: SharedEventDriver {
  private struct State {
    weak var event: SharedEvent<T>?
    var observers = 0
    var generation: UInt64 = 0
    var current: Task<Void, Never>?
    /// A stopped iteration's task, which the next one waits for.
    var stopped: Task<Void, Never>?
    var end: SharedEventEnd?
    /// The owner-bound subscriptions, for the sweeper; held weakly (a subscription holds the
    /// source: a strong list would keep both alive).
    var watched: [WatchedSubscription] = []
    /// The task sweeping `watched`, while the iteration runs and the list is not empty.
    var sweeper: Task<Void, Never>?
  }

  struct WatchedSubscription {
    weak var subscription: SourceSubscription<T>?
  }

  /// How often the sweeper checks the owners: a dead owner's subscription ends, and the
  /// iteration it alone kept running stops, within this interval and the time to cancel.
  ///
  /// Why a periodic sweep, and its cost: nothing announces an object's death (the library
  /// keeps no record of owners, see `OwnerLifetime`), and a quiet feed brings no value that
  /// would find the owner gone. So the check must come from a clock, and only while work
  /// runs: one task per event, alive only while its iteration runs with at least one
  /// owner-bound subscription. Each wake takes the source's lock once, copies the list and
  /// loads one weak reference per owner: microseconds, four times a second, beside a feed
  /// (a socket, a sensor) that costs far more; an event with no owner-bound subscription,
  /// or whose feed is stopped, pays nothing.
  static var sweepInterval: UInt64 { 250_000_000 }

  private let state = Locked(State())
  private let start: SharedEventStart
  private let stop: SharedEventStop
  private let onError: (@Sendable (any Error) -> Void)?
  /// Makes the task of iteration `generation`, which first waits for `previous`.
  private let iterate: @Sendable (AsyncEventSource<T>, UInt64, Task<Void, Never>?) -> Task<Void, Never>
  /// The end, replayed to late ``SharedEvent/onFinish(_:)`` handlers.
  let ended = SharedEvent<SharedEventEnd>(replay: 1)

  init<Sequence: AsyncSequence & Sendable>(
    _ sequence: Sequence,
    start: SharedEventStart,
    stop: SharedEventStop,
    onError: (@Sendable (any Error) -> Void)?
  ) where Sequence.Element == T {
    self.start = start
    self.stop = stop
    self.onError = onError
    iterate = { source, generation, previous in
      // The task holds the source weakly: the event holds the source, and the source's
      // deinit cancels the task, so an event nobody keeps is not kept by its iteration.
      Task { [weak source] in
        await previous?.value
        var failure: (any Error)?
        do {
          for try await value in sequence {
            guard let event = source?.event(ifCurrent: generation) else { return }
            event.notifyObservers(value)
          }
        } catch {
          failure = error
        }
        source?.iterationEnded(generation, failure: failure)
      }
    }
  }

  deinit {
    let (current, stopped) = state.withLock { ($0.current, $0.stopped) }
    current?.cancel()
    stopped?.cancel()
    state.withLock { $0.sweeper }?.cancel()
  }

  /// Called once by the event's initializer, right after the event is made.
  func attach(to event: SharedEvent<T>) {
    let task = state.withLock { state -> Task<Void, Never>? in
      state.event = event
      return start == .immediately ? startLocked(&state) : nil
    }
    withExtendedLifetime(task) {}
  }

  /// The end, if the sequence has ended.
  var end: SharedEventEnd? { state.withLock { $0.end } }

  /// Registers with `register`, counts the observer and starts the iteration for the first
  /// one if it must; the returned disposable uncounts it.
  @usableFromInline
  func observe(_ register: () -> any Disposable) -> any Disposable {
    if end != nil { return Self.endedSubscription() }
    // The owners of an owner-bound subscription being made on this thread, if this is one.
    let owners = ExternalOwnerFrame.currentOwners
    let token = register()
    let subscription = SourceSubscription(token, source: self, owners: owners)
    schedulePoint("source: registered; counting the observer")
    let isEnded = state.withLock { state -> Bool in
      if state.end != nil { return true }
      state.observers += 1
      if state.observers == 1, state.current == nil { _ = startLocked(&state) }
      if !owners.isEmpty {
        state.watched.append(WatchedSubscription(subscription: subscription))
        startSweeperLocked(&state)
      }
      return false
    }
    if isEnded {
      subscription.endUncounted()
      return token
    }
    return subscription
  }

  /// Starts the sweeper if the iteration runs, owner-bound subscriptions are listed, and
  /// none runs; call with the lock held. Makes a task, which runs no user code here.
  private func startSweeperLocked(_ state: inout State) {
    guard state.sweeper == nil, state.current != nil, !state.watched.isEmpty else { return }
    state.sweeper = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: Self.sweepInterval)
        // Held only for one sweep: the sweeper must not keep an event nobody keeps.
        guard !Task.isCancelled, let source = self, source.sweepDeadOwners() else { return }
      }
    }
  }

  /// Disposes the listed subscriptions whose owner has gone; returns false, having cleared
  /// the sweeper, once nothing is left to sweep (the iteration stopped, or no owner-bound
  /// subscription remains). The owners are loaded outside the lock: a load may return the
  /// last reference to one, and a disposal takes the event's lock and may stop the iteration.
  private func sweepDeadOwners() -> Bool {
    let listed = state.withLock { state -> [SourceSubscription<T>]? in
      state.watched.removeAll { $0.subscription == nil }
      guard state.current != nil, !state.watched.isEmpty else {
        state.sweeper = nil
        return nil
      }
      return state.watched.compactMap(\.subscription)
    }
    guard let listed else { return false }
    schedulePoint("source: sweeping the owners outside the lock")
    for subscription in listed where subscription.hasDeadOwner {
      subscription.dispose()
    }
    return true
  }

  private static func endedSubscription() -> any Disposable {
    let slot = DisposableSlot()
    slot.dispose()
    return slot
  }

  /// Starts a new iteration; call with the lock held, before the end. Makes a task, which
  /// runs no user code here.
  private func startLocked(_ state: inout State) -> Task<Void, Never>? {
    guard state.end == nil, state.current == nil else { return nil }
    state.generation += 1
    let task = iterate(self, state.generation, state.stopped)
    state.current = task
    state.stopped = nil
    return task
  }

  /// One observer went; the last one stops the iteration if the event stops then, and the
  /// sweeper with it.
  func observerLeft(_ subscription: SourceSubscription<T>) {
    let cancelled = state.withLock { state -> (Task<Void, Never>, Task<Void, Never>?)? in
      state.observers -= 1
      if subscription.isOwnerBound {
        state.watched.removeAll { $0.subscription == nil || $0.subscription === subscription }
      }
      guard state.observers == 0, stop == .afterLastObserver, let current = state.current else { return nil }
      state.current = nil
      state.stopped = current
      state.generation += 1
      defer { state.sweeper = nil }
      return (current, state.sweeper)
    }
    guard let cancelled else { return }
    schedulePoint("source: the iteration stopped; cancelling its task outside the lock")
    cancelled.0.cancel()
    cancelled.1?.cancel()
  }

  /// The event, while iteration `generation` is the current one.
  func event(ifCurrent generation: UInt64) -> SharedEvent<T>? {
    state.withLock { state in
      state.generation == generation && state.current != nil ? state.event : nil
    }
  }

  /// Iteration `generation` returned (the sequence ended, threw, or the task was cancelled).
  func iterationEnded(_ generation: UInt64, failure: (any Error)?) {
    let (event, sweeper) = state.withLock { state -> (SharedEvent<T>?, Task<Void, Never>?) in
      guard state.generation == generation, state.current != nil, state.end == nil else { return (nil, nil) }
      state.end = failure.map(SharedEventEnd.failed) ?? .finished
      state.current = nil
      state.watched = []
      defer { state.sweeper = nil }
      return (state.event, state.sweeper)
    }
    sweeper?.cancel()
    guard let event else { return }
    schedulePoint("source: the end recorded; ending the subscriptions outside the lock")
    if let failure { onError?(failure) }
    event.event.endAll()
    ended.notifyObservers(failure.map(SharedEventEnd.failed) ?? .finished)
  }
}

extension ObservableEvent {
  /// Ends every subscription and empties the replay: the end of an event's source.
  func endAll() {
    if let replay {
      let dropped = storage.withLock { _ in replay.removeAll() }
      withExtendedLifetime(dropped) {}
    }
    storage.removeAll()
  }
}

/// A subscription of an event made from a sequence: disposing it uncounts the observer,
/// once, which may stop the iteration.
final class SourceSubscription<T: Sendable>: Disposable {
  private let token: any Disposable
  private let source: AsyncEventSource<T>
  /// The owners it was bound to, if it is owner-bound (see `ExternalOwnerFrame`).
  private let owners: [WeakReference]
  private let counted = Locked(true)

  init(_ token: any Disposable, source: AsyncEventSource<T>, owners: [WeakReference]) {
    self.token = token
    self.source = source
    self.owners = owners
  }

  var isOwnerBound: Bool { !owners.isEmpty }

  /// Whether one of its owners has gone. Load outside the source's lock.
  var hasDeadOwner: Bool { owners.contains { $0.object == nil } }

  func dispose() {
    token.dispose()
    if takeCount() { source.observerLeft(self) }
  }

  /// Ends a subscription that was never counted (the event had ended).
  func endUncounted() {
    _ = takeCount()
    token.dispose()
  }

  private func takeCount() -> Bool {
    counted.withLock { counted in
      defer { counted = false }
      return counted
    }
  }

  var isDisposed: Bool { token.isDisposed }
}
