// Async handlers on the confined family: the handler, its tasks and the source share one
// actor, the caller's, so the handler may capture and change what that actor owns.

extension EventSource {
  /// Registers an async `handler` for as long as `owner` is alive, one call at a time, each
  /// in a task isolated to the caller's actor; `policy` says what happens to values that
  /// arrive while a call runs. The rules are those of the shared family's
  /// `observe(with:policy:_:)`: calls never overlap, the owner is held weakly between values,
  /// and disposing (or the bag) cancels the call in flight and starts nothing more.
  ///
  /// ```swift
  /// @MainActor final class ProfileViewModel {
  ///   var avatar: Image?
  ///   let bag = DisposeBag()
  ///   init(userID: Property<String>, loader: AvatarLoader) {
  ///     userID.observe(with: self, policy: .latest) { viewModel, id async in
  ///       viewModel.avatar = try? await loader.avatar(for: id)   // an older load is cancelled
  ///     }.disposed(by: bag)
  ///   }
  /// }
  /// ```
  ///
  /// Only code isolated to an actor (the main actor, or an actor's method) can register one:
  /// the tasks run on that actor, which the source's domain is. From nonisolated code it is
  /// a compile error ("'nil' is not compatible with expected argument type 'any Actor'",
  /// "call to actor-isolated instance method … in a synchronous nonisolated context"):
  /// share the values through a ``SharedEvent`` instead. Inside an actor, a handler
  /// that changes the actor's state is refused too, as the owner parameter is not
  /// `isolated`: observe a ``SharedEvent`` with the actor as owner.
  @discardableResult
  public func observe<Owner: AnyObject>(
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    isolation: isolated any Actor = #isolation,
    _ handler: nonisolated(nonsending) @escaping (Owner, Value) async -> Void
  ) -> any Disposable {
    ExternalOwner.subscribe(owner) { external in
      let token = ConfinedAsyncToken()
      let runner = ConfinedAsyncRunner<Value>(policy: policy, token: token) { value in
        guard let owner = external.owner else { return false }
        await handler(owner, value)
        return true
      }
      token.attach(observe { value in
        if external.owner(endingIfGone: token) != nil { runner.receive(value, isolation: isolation) }
      })
      return token
    }
  }
}

extension EventHub {
  /// Registers an async `handler` for every later post of `message`, for as long as `owner`
  /// is alive, one call at a time under `policy`, each in a task isolated to the caller's
  /// actor; see the confined `observe(with:policy:isolation:_:)` of `EventSource`.
  ///
  /// ```swift
  /// hub.observe(.signedIn, with: self, policy: .latest) { viewModel, user async in
  ///   viewModel.profile = try? await api.profile(for: user)
  /// }.disposed(by: bag)
  /// ```
  @discardableResult
  public func observe<Payload, Owner: AnyObject>(
    _ message: HubMessage<Payload>,
    from sender: AnyObject? = nil,
    with owner: Owner,
    policy: AsyncHandlerPolicy,
    isolation: isolated any Actor = #isolation,
    _ handler: nonisolated(nonsending) @escaping (Owner, Payload) async -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(with: owner, policy: policy, isolation: isolation, handler)
  }
}

/// The disposable of a confined async subscription: the upstream token and the running task,
/// which any thread may end. The runner, with the handler and the values that wait, stays on
/// its actor, held by the upstream handler and by the running task.
final class ConfinedAsyncToken: Disposable {
  private struct State: Sendable {
    var upstream: (any Disposable)?
    var running: Task<Void, Never>?
    var isDisposed = false
  }

  private let state = Locked(State())

  /// Connects the token to the subscription that feeds the runner.
  func attach(_ token: any Disposable) {
    let disposeNow = state.withLock { state -> Bool in
      guard !state.isDisposed else { return true }
      state.upstream = token
      return false
    }
    if disposeNow { token.dispose() }
  }

  /// Records the task that runs a call; false (and the task cancelled) once disposed.
  func setRunning(_ task: Task<Void, Never>?) {
    let cancel = state.withLock { state -> Bool in
      guard !state.isDisposed else { return true }
      state.running = task
      return false
    }
    if cancel { task?.cancel() }
  }

  /// The running task, for `latest` to cancel.
  var running: Task<Void, Never>? { state.withLock { $0.running } }

  func dispose() {
    let (upstream, running) = state.withLock { state in
      defer {
        state.isDisposed = true
        state.upstream = nil
        state.running = nil
      }
      return (state.upstream, state.running)
    }
    running?.cancel()
    upstream?.dispose()
  }

  var isDisposed: Bool { state.withLock { $0.isDisposed } }
}

/// Runs the calls of a confined async subscription on its actor, one task at a time. Every
/// method runs on that actor (the source notifies there, and the tasks are isolated to it),
/// so its state needs no lock.
final class ConfinedAsyncRunner<Value> {
  /// Runs on the caller's actor, which the task that calls it is isolated to.
  typealias Call = nonisolated(nonsending) (Value) async -> Bool

  private let policy: AsyncHandlerPolicy
  private let token: ConfinedAsyncToken
  private let call: Call
  private var waiting = DeliveryBuffer<Value>()
  private var isBusy = false
  /// The `DeliveriesInFlight` entry of the chain of calls under way (debug builds), from
  /// the value that found the runner idle until it is idle again.
  private var inFlight: Int?

  init(policy: AsyncHandlerPolicy, token: ConfinedAsyncToken, call: @escaping Call) {
    self.policy = policy
    self.token = token
    self.call = call
  }

  func receive(_ value: Value, isolation: isolated any Actor) {
    guard !token.isDisposed else { return }
    guard isBusy else {
      start(value, isolation: isolation)
      return
    }
    switch policy {
    case .serial:
      waiting.append(value)
    case .latest:
      waiting = DeliveryBuffer()
      waiting.append(value)
      token.running?.cancel()
    case .dropWhileBusy:
      break
    }
  }

  private func start(_ value: Value, isolation: isolated any Actor) {
    isBusy = true
    #if DEBUG
    if inFlight == nil { inFlight = DeliveriesInFlight.begin() }
    #endif
    token.setRunning(Task {
      _ = isolation  // the task runs on the caller's actor
      let ownerAlive = await self.call(value)
      self.callReturned(ownerAlive: ownerAlive, isolation: isolation)
    })
  }

  private func callReturned(ownerAlive: Bool, isolation: isolated any Actor) {
    isBusy = false
    token.setRunning(nil)
    #if DEBUG
    // The chain ends unless a waiting value starts the next call below.
    defer {
      if !isBusy, let entry = inFlight {
        inFlight = nil
        DeliveriesInFlight.end(entry)
      }
    }
    #endif
    guard ownerAlive else {
      token.dispose()
      return
    }
    guard !token.isDisposed else {
      waiting = DeliveryBuffer()
      return
    }
    if let next = waiting.popFirst() { start(next, isolation: isolation) }
  }
}
