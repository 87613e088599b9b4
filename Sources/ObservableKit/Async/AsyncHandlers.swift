// Async work in a handler, with a policy for the values that arrive while it runs.
//
// `observe { v in Task { await self.load(v) } }` leaks tasks, lets them overtake one another
// and keeps `self` alive across every await. Here each subscription runs one task at a time,
// holds its owner weakly between values, and cancels what is in flight when it ends.

/// What an async handler's subscription does with a value that arrives while the handler is
/// still busy with an earlier one. One task runs at a time per subscription, whatever the
/// policy.
public enum AsyncHandlerPolicy: Sendable, Hashable {
  /// Every value, in order: a value that arrives while the handler runs waits its turn.
  case serial
  /// The newest value: a value that arrives while the handler runs cancels the running call
  /// and replaces any value that waits; it starts once the cancelled call has returned.
  case latest
  /// The value the handler is free for: a value that arrives while the handler runs is
  /// dropped.
  case dropWhileBusy
}

extension SharedEventSource {
  /// Registers an async `handler` for as long as `owner` is alive, running one call at a
  /// time, each in a task of its own; `policy` says what happens to values that arrive while
  /// a call runs. The handler keeps the isolation of the caller: a `@MainActor` view model's
  /// handler runs on the main actor, between its awaits.
  ///
  /// ```swift
  /// query.observe(with: self, policy: .latest) { viewModel, text async in
  ///   viewModel.results = (try? await search.run(text)) ?? []   // an older search is cancelled
  /// }.disposed(by: bag)
  /// ```
  ///
  /// - `owner` is held weakly between values and strongly by the call that runs, which
  ///   receives it. Once it has gone, the next value ends the subscription.
  /// - Disposing the returned disposable (or the bag that holds it) cancels the call in
  ///   flight (cooperatively: `Task.isCancelled`, a throwing `await`), drops the values that
  ///   wait, and starts nothing more. The owner's deinit ends the subscription the same way
  ///   where it ends owner-bound subscriptions (see the owner-bound `observe(with:_:)`), and
  ///   through a ``DisposeBag`` it owns on every platform.
  /// - Calls never overlap: the next starts only after the previous one has returned, even
  ///   when it was cancelled.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Owner, Value) async -> Void
  ) -> any Disposable {
    observeAsync(with: owner, policy: policy) { owner, value in await handler(owner, value) }
  }

  /// Registers an async `handler` for as long as the actor `owner` is alive, running it
  /// isolated to `owner`, one call at a time; `policy` says what happens to values that
  /// arrive while a call runs. The rules of the `observe(with:policy:_:)` for any owner apply;
  /// between its awaits the handler may change the actor's state.
  @discardableResult
  public func observe<Owner: Actor>(
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    _ handler: @escaping @Sendable (isolated Owner, Value) async -> Void
  ) -> any Disposable {
    observeAsync(with: owner, policy: policy) { owner, value in await handler(owner, value) }
  }

  /// The two owner-bound async forms: `call` hops to the handler's isolation (the caller's,
  /// or the actor owner's) when it runs.
  private func observeAsync<Owner: AnyObject & Sendable>(
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    _ call: @escaping @Sendable (Owner, Value) async -> Void
  ) -> any Disposable {
    ExternalOwner.subscribe(owner) { external in
      let runner = AsyncHandlerRunner<Value>(policy: policy) { value in
        guard let owner = external.owner else { return false }
        await call(owner, value)
        return true
      }
      runner.attach(observeNonisolated { value in
        if external.owner(endingIfGone: runner) != nil { runner.receive(value) }
      })
      return runner
    }
  }
}

extension SharedEventHub {
  /// Registers an async `handler` for every later post of `message`, for as long as `owner`
  /// is alive, one call at a time under `policy`; see
  /// `observe(with:policy:_:)` of `SharedEventSource`.
  @discardableResult
  public func observe<Payload: Sendable, Owner: AnyObject & Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Owner, Payload) async -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(with: owner, policy: policy, handler)
  }

  /// Registers an async `handler` for every later post of `message`, for as long as the
  /// actor `owner` is alive, running it isolated to `owner`, one call at a time under
  /// `policy`; see the actor-owner `observe(with:policy:_:)` of `SharedEventSource`.
  ///
  /// ```swift
  /// actor Inbox {
  ///   var received: [String] = []
  ///   func start(hub: SharedEventHub) {
  ///     hub.observe(.message, with: self, policy: .serial) { inbox, text async in
  ///       inbox.received.append(text)   // isolated to the actor
  ///     }
  ///   }
  /// }
  /// ```
  @discardableResult
  public func observe<Payload: Sendable, Owner: Actor>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    _ handler: @escaping @Sendable (isolated Owner, Payload) async -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(with: owner, policy: policy, handler)
  }
}

/// Runs an async call per value, one task at a time, under a policy.
///
/// Invariant where the lock is dropped: `running` is set, under the lock, by the value that
/// finds the runner idle, and replaced or cleared by the task when its call returns, so at
/// most one task runs a call at a time. A value that arrives meanwhile is queued, replaces
/// the queued one (cancelling the running task, outside the lock), or is dropped, under the
/// same lock. The tasks are created under the lock: creating one runs no user code, and its
/// body takes the lock only once it runs. ``dispose()`` clears the call and the queue and
/// takes the running task under the lock, then cancels it outside: nothing starts after it
/// returns.
final class AsyncHandlerRunner<Value: Sendable>: Disposable, Sendable {
  /// Handles one value; false when the owner has gone.
  typealias Call = @Sendable (Value) async -> Bool

  private struct State: Sendable {
    /// Nil once disposed.
    var call: Call?
    var waiting = DeliveryBuffer<Value>()
    /// The task running a call; nil while idle.
    var running: Task<Void, Never>?
    /// The `DeliveriesInFlight` entry of the chain of calls under way (debug builds): from
    /// the value that found the runner idle until the task whose call leaves nothing
    /// waiting has returned, also when a dispose cleared `running` meanwhile.
    var inFlight: Int?
  }

  private let policy: AsyncHandlerPolicy
  private let state: Locked<State>
  private let upstream = DisposableSlot()

  init(policy: AsyncHandlerPolicy, call: @escaping Call) {
    self.policy = policy
    state = Locked(State(call: call))
  }

  /// Connects the runner to the subscription that feeds it.
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  /// Takes in a value the source delivered.
  func receive(_ value: Value) {
    let superseded = state.withLock { state -> Task<Void, Never>? in
      guard let call = state.call else { return nil }
      guard let running = state.running else {
        #if DEBUG
        if state.inFlight == nil { state.inFlight = DeliveriesInFlight.begin() }
        #endif
        state.running = task(calling: call, with: value)
        return nil
      }
      switch policy {
      case .serial:
        state.waiting.append(value)
        return nil
      case .latest:
        state.waiting = DeliveryBuffer()
        state.waiting.append(value)
        return running
      case .dropWhileBusy:
        return nil
      }
    }
    superseded?.cancel()
  }

  /// The task that calls `call` with `value`, then starts the value that waits, if any.
  private func task(calling call: @escaping Call, with value: Value) -> Task<Void, Never> {
    Task {
      let ownerAlive = await call(value)
      self.callReturned(ownerAlive: ownerAlive)
    }
  }

  /// Starts the value that waits, if any, else marks the runner idle.
  private func callReturned(ownerAlive: Bool) {
    if !ownerAlive { dispose() }
    let ended = state.withLock { state -> Int? in
      if ownerAlive, let call = state.call, let value = state.waiting.popFirst() {
        state.running = task(calling: call, with: value)
        return nil
      }
      state.running = nil
      defer { state.inFlight = nil }
      return state.inFlight
    }
    #if DEBUG
    if let ended { DeliveriesInFlight.end(ended) }
    #else
    _ = ended
    #endif
  }

  func dispose() {
    upstream.dispose()
    let (released, running) = state.withLock { state in
      defer {
        state.call = nil
        state.waiting = DeliveryBuffer()
        state.running = nil
      }
      return ((state.call, state.waiting), state.running)
    }
    running?.cancel()
    withExtendedLifetime(released) {}
  }

  var isDisposed: Bool { state.withLock { $0.call == nil } }
}
