/// The state machine every asynchronous delivery shares: values wait in order, one drain at
/// a time hands them to the handler, and closing drops what waits and the handler.
///
/// Invariant where the lock is dropped: a drain takes the values that wait and the handler
/// under the lock (``nextBatch(_:)``), then calls the handler outside it, each value only
/// after one load of the flags word finds the mailbox open.
/// `isDraining` is set from the moment a drain is decided (``post(_:)`` returned true) until
/// the drain finds nothing waiting, so at most one drain calls the handler, and a value
/// posted meanwhile waits behind the ones before it. ``close()`` clears the handler and sets
/// the closed flag under the same lock, so no value is taken for a call after it returns; a
/// call whose value was taken just before may still run, as for a pass in progress on
/// another thread, and the rest of a batch is released by its drain. ``dispose()`` does the
/// same and drops the upstream subscription kept by ``attach(_:)`` in the same lock hold,
/// disposing it once the lock is released. ``startDrain(with:)`` starts a drain with the
/// value it is given, for a caller that drains where it runs: that value is next in order
/// because nothing waited. ``finish()`` instead lets the values that wait be delivered first:
/// `isFinishing` is only set while a drain runs (values wait only then), and that drain drops
/// the handler when it finds nothing left.
///
/// The per-value path (``post(_:)``, ``startDrain(with:)``, ``drain(_:)``, ``next()``) is
/// inlinable, with the deliveries that `observe { }` makes, so that it is specialized for the
/// value type where the subscription is made: unspecialized, each value paid for the
/// runtime's look-ups of the generic types it touches.
@usableFromInline
struct DeliveryMailbox<Value: Sendable, Handler: Sendable>: Sendable {
  @usableFromInline
  struct State: Sendable {
    // The fields are ordered so that a live subscription's bytes stay few (counted by the
    // S8s and S17 rows): the flags and the count share one word after the handler, and a
    // one-byte handler (``LentHandler``) shares that word too.
    @usableFromInline var buffer = DeliveryBuffer<Value>()
    /// Nil once closed.
    @usableFromInline var handler: Handler?
    @usableFromInline var isDraining = false
    /// Set by ``finish()`` while a drain runs: the drain closes the mailbox when it is done.
    @usableFromInline var isFinishing = false
    /// Set by ``dispose()``: an upstream subscription attached later is disposed at once.
    @usableFromInline var isDisposed = false
    /// How many drains have started: the tests' count of jobs (`DrainCounting`); wraps.
    @usableFromInline var drainsStarted: UInt32 = 0
    /// The upstream subscription, for a delivery that keeps it here (``attach(_:)``) rather
    /// than in a `DisposableSlot` of its own: one allocation less per subscription.
    @usableFromInline var upstream: (any Disposable)?
    #if DEBUG
    /// The firings owed an end by the drain that runs (see ``oweEnclosingScope()``).
    @usableFromInline var owed: [FiringScope] = []
    #endif

    @inlinable
    init(handler: Handler) {
      self.handler = handler
    }
  }

  /// The state under its lock. An `ObserverListLock` rather than a `Locked` for its epoch,
  /// which moves each time ``post(_:)`` starts a drain and loads without the lock: a
  /// synchronous call (``startCall(with:)``) tells by one load after the handler returned
  /// whether a value came meanwhile.
  @usableFromInline let state: ObserverListLock<State>

  @inlinable
  init(handler: Handler) {
    state = ObserverListLock(State(handler: handler))
  }

  /// Queues `value`; returns true if the caller must start a drain (none runs).
  @inlinable
  func post(_ value: Value) -> Bool {
    let lock = state
    return lock.withLock { state in
      guard state.handler != nil else { return false }
      state.buffer.append(value)
      defer { state.isDraining = true }
      if !state.isDraining {
        state.drainsStarted &+= 1
        lock.storeFlagsLocked(Self.draining)
        lock.advanceEpochLocked()
      }
      return !state.isDraining
    }
  }

  /// For a caller that drains at once where it runs and holds the handler itself (a
  /// ``DeliveryCallFeed`` lends it): when no drain runs, starts one and returns true, and the
  /// caller calls the handler with `value` now (`value` is not queued: nothing waits, so it
  /// is next in order), then ``next()`` until nil. Otherwise queues `value` behind what waits
  /// (the running drain delivers it) and returns false; false too once closed. One lock hold
  /// for the common case, no allocation, and no copy of the handler: the buffer is not
  /// touched, and the caller calls the function it already holds.
  @inlinable
  func startDrain(with value: Value) -> Bool {
    let lock = state
    return lock.withLock { state in
      guard state.handler != nil else { return false }
      if state.isDraining {
        state.buffer.append(value)
        return false
      }
      state.isDraining = true
      lock.storeFlagsLocked(Self.draining)
      state.drainsStarted &+= 1
      return true
    }
  }

  /// For a caller on the main actor that calls at once and keeps calls from overlapping by
  /// itself (`MainActorDelivery`, whose calls all run on the main actor), holding the handler
  /// itself as ``startDrain(with:)``'s caller does: when no drain runs or waits, returns
  /// true, and the caller calls the handler with `value` now, without marking a drain, so
  /// that nothing needs to be cleared after the call (one lock hold per value). Nothing
  /// waits then, so `value` is next in order. Otherwise queues `value` behind what waits
  /// (the drain delivers it) and returns false; false too once closed. A value posted during
  /// the call finds no drain and starts one, which the caller runs after the call.
  ///
  /// The caller loads ``epoch`` just before: ``postedSince(_:)`` then tells it, after the
  /// call, whether a value was posted meanwhile (another thread's, which then started a
  /// drain), so that the caller delivers it right after the call, as a drain would have. A
  /// post that started its drain between that load and this lock hold is seen here as a
  /// drain (the value is queued behind it), so loading the epoch first misses nothing.
  @inlinable
  func startCall(with value: Value) -> Bool {
    state.withLock { state in
      guard state.handler != nil else { return false }
      if state.isDraining {
        state.buffer.append(value)
        return false
      }
      state.drainsStarted &+= 1
      return true
    }
  }

  /// The flags every lock hold that starts or ends a drain, or closes, mirrors into the
  /// lock's flags word: ``draining`` while a drain is marked (values may wait), ``closed``
  /// once the handler is dropped. Written only under the lock, read by ``isIdle`` without it.
  @inlinable static var draining: UInt32 { 1 }
  @inlinable static var closed: UInt32 { 2 }

  /// Whether no drain is marked and the mailbox is open, read without the lock (one atomic
  /// load): for `MainActorDelivery`'s call on the main actor, which then calls at once
  /// without a lock hold. A value posted or a `dispose()` made on another thread after this
  /// load is one that came during the call (the caller's check of ``postedSince(_:)`` after
  /// the call delivers such a value right after it), as for a pass in progress.
  @inlinable
  var isIdle: Bool { state.flags == 0 }

  /// The epoch, which ``post(_:)`` advances each time it starts a drain: one atomic load,
  /// without the lock.
  @inlinable
  var epoch: UInt64 { state.epoch }

  /// Whether ``post(_:)`` started a drain since ``epoch`` was `epoch`: one atomic load,
  /// without the lock. A post that started one advanced the epoch under the lock after
  /// queuing its value, so a caller that sees the change finds the value with ``drain(_:)``; a
  /// post it does not see is ordered after this load, and its drain (a main-actor job)
  /// delivers it.
  @inlinable
  func postedSince(_ epoch: UInt64) -> Bool {
    state.epoch != epoch
  }

  /// For a drain that calls where it runs: every value that waits, moved into `batch` (which
  /// must be empty; its capacity is handed back to the mailbox), with the handler, in one
  /// lock hold. Nil ends the drain: nothing waits (and, once the mailbox is finishing, the
  /// handler is released, outside the lock). The drain calls the handler with the batch's
  /// values in order, each only while ``isOpen`` holds (one load before each call), then
  /// asks again.
  ///
  /// Why a batch: a value taken one lock hold at a time made the notifying thread and the
  /// drain hand the lock's cache line back and forth for every value of a burst. Why hand the
  /// capacity back: a fresh buffer per batch made the notifying thread grow one again for
  /// each (S15 and S15a: 221–284 ns per value instead of 123–174, interleaved runs of
  /// `RUNS=1 bash Benchmarks/run.sh --filter 'S15.*'`).
  ///
  /// A `dispose()` during the batch stops it before the next call (no value is taken for a
  /// call once it returns); the values left in the batch, which the drain had taken from the
  /// mailbox, are released by the drain, right after its current call.
  @inlinable
  func nextBatch(_ batch: inout DeliveryBuffer<Value>) -> Handler? {
    let lock = state
    #if DEBUG
    var owed: [FiringScope] = []
    #endif
    let (handler, released) = lock.withLock { state -> (Handler?, Handler?) in
      if let handler = state.handler, !state.buffer.isEmpty {
        swap(&batch, &state.buffer)
        return (handler, nil)
      }
      #if DEBUG
      swap(&owed, &state.owed)
      #endif
      return (nil, Self.endDrainLocked(&state, lock))
    }
    _ = consume released
    #if DEBUG
    for scope in owed { scope.end() }
    #endif
    return handler
  }

  /// The drain loop of a delivery that calls where it runs: takes what waits in batches
  /// (``nextBatch(_:)``) and hands each value to `body` with the handler, in order, while the
  /// mailbox is open; returns once nothing waits.
  @inlinable
  func drain(_ body: (Handler, Value) -> Void) {
    var batch = DeliveryBuffer<Value>()
    while let handler = nextBatch(&batch) {
      while isOpen, let value = batch.popFirst() {
        body(handler, value)
      }
    }
  }

  /// The next value with the handler to call, one lock hold per value; nil ends the drain
  /// as ``nextBatch(_:)`` does. For a drain where values seldom wait (`NonisolatedDelivery`'s,
  /// inside the feed's call): ``drain(_:)`` there cost a release call per value, of the
  /// empty batch it asks for (check-thresholds.sh, S1s).
  @inlinable
  func next() -> (Handler, Value)? {
    let lock = state
    #if DEBUG
    var owed: [FiringScope] = []
    #endif
    let (next, released) = lock.withLock { state -> ((Handler, Value)?, Handler?) in
      if let handler = state.handler, let value = state.buffer.popFirst() {
        return ((handler, value), nil)
      }
      #if DEBUG
      swap(&owed, &state.owed)
      #endif
      return (nil, Self.endDrainLocked(&state, lock))
    }
    _ = consume released
    #if DEBUG
    for scope in owed { scope.end() }
    #endif
    return next
  }

  /// Ends a drain that found nothing waiting, with the lock held: clears `isDraining` and
  /// mirrors the flags; once the mailbox is finishing, closes it and returns the handler,
  /// for the caller to release after the lock.
  @inlinable
  static func endDrainLocked(_ state: inout State, _ lock: ObserverListLock<State>) -> Handler? {
    state.isDraining = false
    guard state.isFinishing else {
      lock.storeFlagsLocked(state.handler == nil ? closed : 0)
      return nil
    }
    lock.storeFlagsLocked(closed)
    return state.handler.take()
  }

  #if DEBUG
  /// For a delivery that has just queued a value for a later drain (a job of another actor),
  /// inside a timer's firing whose clock waits for its handlers (``FiringScope``): makes the
  /// drain that runs owe the firing an end, so that the firing waits until that drain has
  /// delivered the value. Debug builds only; a caller outside a firing pays one task-local
  /// read.
  ///
  /// Invariant (a check made before a hop is made again after it): the value was queued in
  /// an earlier lock hold than this one, and a drain ends (``endDrainLocked(_:_:)``, which
  /// hands its owed ends over in the same hold) only in a hold that finds nothing waiting.
  /// So if a drain is marked here, the value is delivered, or dropped by a close, before
  /// that drain ends and ends the entry; if none is marked, the drain that took the value
  /// has already ended, after its call, and nothing is owed. Whether the drain was started
  /// by this post or outside the firing makes no difference. A drain whose job will not run
  /// ends its owed entries through ``endAbandonedDrain()``.
  @inlinable
  func oweEnclosingScope() {
    guard let scope = FiringScope.enclosing() else { return }
    state.withLock { state in
      guard state.isDraining, scope.begin() else { return }
      state.owed.append(scope)
    }
  }

  /// Ends a drain whose job will not run (its actor is gone): the firings it owed stop
  /// waiting for it.
  @usableFromInline
  func endAbandonedDrain() {
    let lock = state
    var owed: [FiringScope] = []
    let released = lock.withLock { state -> Handler? in
      guard state.isDraining else { return nil }
      swap(&owed, &state.owed)
      return Self.endDrainLocked(&state, lock)
    }
    _ = consume released
    for scope in owed { scope.end() }
  }
  #endif

  /// Whether the mailbox is still open, read without the lock (one atomic load of the flags
  /// word, which every closing sets under the lock before it returns).
  @inlinable
  var isOpen: Bool { state.flags & Self.closed == 0 }

  /// Ends delivery: drops the handler and what waits, released here, outside the lock.
  ///
  /// The closings move what they release out of the state (`take()`, `swap`) rather than
  /// copy it and then clear it: a copy of the state's parts went through the runtime's
  /// generic value witnesses, the bulk of a disposal (measured by the S16 row).
  @inlinable
  func close() {
    var handler: Handler?
    var buffer = DeliveryBuffer<Value>()
    let lock = state
    lock.withLock { state in
      handler = state.handler.take()
      swap(&buffer, &state.buffer)
      lock.storeFlagsLocked(Self.closed | (state.isDraining ? Self.draining : 0))
    }
    _ = consume handler
    _ = consume buffer
  }

  /// Keeps `token`, the upstream subscription, until ``dispose()``; disposes it at once
  /// (outside the lock) if ``dispose()`` came first, as a handler may ask to stop during
  /// `observe` (`take(1)` on a property's replay).
  @inlinable
  func attach(_ token: any Disposable) {
    let disposeNow = state.withLock { state in
      if state.isDisposed { return true }
      state.upstream = token
      return false
    }
    if disposeNow { token.dispose() }
  }

  /// ``close()``, and disposes the upstream subscription kept by ``attach(_:)``: both under
  /// one lock, the token disposed and the handler released outside it. Once this returns, no
  /// value is taken for a call.
  @inlinable
  func dispose() {
    var handler: Handler?
    var buffer = DeliveryBuffer<Value>()
    let lock = state
    let upstream = lock.withLock { state -> (any Disposable)? in
      state.isDisposed = true
      handler = state.handler.take()
      swap(&buffer, &state.buffer)
      lock.storeFlagsLocked(Self.closed | (state.isDraining ? Self.draining : 0))
      return state.upstream.take()
    }
    upstream?.dispose()
    _ = consume handler
    _ = consume buffer
  }

  /// Ends delivery once the values that wait have been delivered: the source will send no
  /// more (it released the subscription's handler). Closes at once if nothing waits.
  @inlinable
  func finish() {
    // Already closed (the usual case: a `dispose()` closed it, then released the upstream
    // subscription, whose release brings the source's release of the feed here): nothing
    // to do, and the flag, once set, is never cleared, so one load tells without the lock.
    guard state.flags & Self.closed == 0 else { return }
    let lock = state
    let released = lock.withLock { state -> Handler? in
      // Values wait only while a drain runs; that drain closes the mailbox when it is done.
      if state.isDraining {
        state.isFinishing = true
        return nil
      }
      lock.storeFlagsLocked(Self.closed)
      return state.handler.take()
    }
    _ = consume released
  }

  @inlinable
  var isClosed: Bool { state.withLock { $0.handler == nil } }

  /// The handler, nil once closed: for a drain that needs it before it takes a value.
  @inlinable
  var handler: Handler? { state.withLock { $0.handler } }

  /// How many drains have been started.
  @inlinable
  var drainsStarted: Int { Int(state.withLock { $0.drainsStarted }) }

  /// Runs `operation` (see ``DeliveryOperation``).
  @inlinable
  func perform(_ operation: DeliveryOperation) -> Int {
    switch operation {
    case .finish:
      finish()
      return 0
    case .dispose:
      dispose()
      return 0
    case .isClosed:
      return isClosed ? 1 : 0
    case .drainsStarted:
      return drainsStarted
    }
  }
}

/// The mailbox's handler for a delivery whose calls all happen inside the feed's call
/// (`NonisolatedDelivery`, whose drains run on the notifying thread): the feed lends the
/// handler for each (``DeliveryCallFeed``), so the mailbox keeps only whether it is open, in
/// one byte instead of a second reference to the handler.
@usableFromInline
struct LentHandler: Sendable {
  @inlinable init() {}
}

/// What a delivery's ending and inspecting calls ask of its mailbox, through the function a
/// delivery keeps for them (`MainActorDelivery.operate`, `NonisolatedDelivery.operate`).
///
/// Why a stored function and not the methods alone: `dispose()` is reached through
/// `any Disposable`, and `finish()` from `DeliveryFeed`'s deinit, both through witness
/// tables, which hold the library's unspecialized generic bodies. There every lock hold
/// looked up the generic metadata of the mailbox's state and of the optional handler (a
/// hash-table search in the runtime's cache per look-up): the bulk of a shared
/// `observe` + dispose. The function is made in the inlinable initializer, so it is
/// specialized where the subscription is made, and captures nothing (no context to
/// allocate); the witnesses only load it and call it.
@usableFromInline
enum DeliveryOperation: Sendable {
  case finish, dispose, isClosed, drainsStarted
}

/// A delivery whose drains the tests count: a burst that waits must be drained by one job
/// (one task, main-queue block or actor job), not one per value.
package protocol DrainCounting {
  /// How many drains (jobs, or synchronous drains on the notifying thread) have started.
  var drainsStarted: Int { get }
}

extension InlineSubscription: DrainCounting {
  /// The drains of the mailbox kept beside the subscription (a main-actor subscription's,
  /// see `MainActorSubscription`); 0 for one that has none. It is here, not with the token in
  /// Internal/: the engine hands out the link kept beside a subscription (`.link`), and the
  /// mailbox it may be is Delivery's.
  package var drainsStarted: Int {
    (operate(id, .link) as? any DrainCounting)?.drainsStarted ?? 0
  }
}

/// An asynchronous delivery (queue, main actor, isolated) as the upstream source feeds it.
/// Each delivery ends itself with the same three lines (`finish`, `dispose`, `isDisposed`):
/// written once in an extension of this protocol they cost an allocation per shared
/// subscription (measured by the S8s row), so each class keeps its own.
@usableFromInline
protocol FedDelivery: AnyObject, Sendable {
  associatedtype Value: Sendable
  /// Takes in a value the source delivered.
  func enqueue(_ value: Value)
  /// The source will send nothing more: deliver what waits, then release the handler.
  func finish()
}

/// The one object the handler a delivery registers upstream captures. The source is its only
/// owner, so its deinit tells the delivery that the source released the handler: when the
/// subscription is disposed, or when the source deinitializes or ends the subscription
/// itself (`take`) without anyone calling `dispose()`. Make one per subscription and let no
/// one else keep it.
@usableFromInline
final class DeliveryFeed<Delivery: FedDelivery>: Sendable {
  @usableFromInline let delivery: Delivery

  @inlinable
  init(_ delivery: Delivery) {
    self.delivery = delivery
  }

  @inlinable
  func callAsFunction(_ value: Delivery.Value) {
    delivery.enqueue(value)
  }

  deinit {
    delivery.finish()
  }
}

/// A delivery that calls its handler at once where the rules allow (`NonisolatedDelivery`,
/// `MainActorDelivery`), fed by a ``DeliveryCallFeed`` that lends it the handler.
@usableFromInline
protocol CallingDelivery: AnyObject, Sendable {
  associatedtype Value: Sendable
  /// The handler, in the form the delivery calls.
  associatedtype Call: Sendable
  /// Takes in a value the source delivered; `call` is the handler, lent for this call.
  func enqueue(_ value: Value, lending call: Call)
  /// The source will send nothing more: deliver what waits, then release the handler.
  func finish()
}

/// A ``DeliveryFeed`` that also keeps the handler, for the synchronous call.
///
/// Why the feed holds a second reference to the handler: the mailbox's handler is a
/// variable under its lock, so taking it out for a call copies it (a retain and a release
/// per value, measured). The feed's is a constant of an object the source keeps alive for
/// the whole call, so the call borrows it and copies nothing. It adds no lifetime: the
/// source releases the feed when the subscription is disposed or ends, as it released the
/// handler before, and the mailbox's own reference serves the values that wait.
@usableFromInline
final class DeliveryCallFeed<Delivery: CallingDelivery>: Sendable {
  @usableFromInline let delivery: Delivery
  @usableFromInline let call: Delivery.Call

  @inlinable
  init(_ delivery: Delivery, call: Delivery.Call) {
    self.delivery = delivery
    self.call = call
  }

  @inlinable
  func callAsFunction(_ value: Delivery.Value) {
    delivery.enqueue(value, lending: call)
  }

  deinit {
    delivery.finish()
  }
}
