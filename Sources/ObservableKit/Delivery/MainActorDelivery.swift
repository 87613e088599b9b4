/// One subscription whose handler runs on the main actor: synchronously when the value
/// arrives on the main actor and nothing of this subscription waits, otherwise enqueued to
/// the main actor, in order (see `DeliveryMailbox` for the invariant of the drain).
///
/// On every OS version the drain runs at once when the caller runs on the main thread or in a
/// main-queue block (``MainActorNow/isCurrent``), so both paths agree there: a main-queue
/// block that a worker thread runs (after `dispatchMain()`) is one the runtime does not know
/// as the main actor everywhere. Otherwise, from the 26 releases on, the drain starts as an
/// immediate task isolated to the main actor (SE-0472), which runs at once when the runtime
/// knows the caller runs there and is enqueued otherwise; before them (or with
/// `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1` in a debug build), it goes through the main queue.
@usableFromInline
final class MainActorDelivery<Value: Sendable>: Disposable, CallingDelivery, DrainCounting, MainActorCalling {
  @usableFromInline typealias Handler = @MainActor (Value) -> Void

  @usableFromInline let mailbox: DeliveryMailbox<Value, MainActorCall<Value>>
  /// The mailbox's ending and inspecting operations, specialized where the subscription is
  /// made (see `DeliveryOperation`).
  @usableFromInline let operate: @Sendable (MainActorDelivery, DeliveryOperation) -> Int

  // The synchronous call's own state, bound to the main actor (see `MainActorCalling`).
  /// True while a synchronous call (``enqueue(_:)`` on the main actor) runs the handler.
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var isCalling = false
  /// Set when a value came, or a main-actor job asked to drain, during that call: the call
  /// drains what waits once the handler returns.
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var drainsAfterCall = false

  /// Subscribes `handler` through `subscribe`, to be called on the main actor.
  @inlinable
  convenience init(handler: @escaping Handler, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    self.init(call: MainActorCall(handler), subscribe: subscribe)
  }

  /// Subscribes `call` through `subscribe`; see ``init(handler:subscribe:)``.
  @inlinable
  init(call: MainActorCall<Value>, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: call)
    operate = { delivery, operation in delivery.mailbox.perform(operation) }
    let feed = DeliveryCallFeed(self, call: call)
    mailbox.attach(subscribe { feed($0) })
  }

  /// Takes in a value; the handler, `call`, is lent by the feed (see `DeliveryCallFeed`).
  @inlinable
  func enqueue(_ value: Value, lending call: MainActorCall<Value>) {
    if MainActorNow.isCurrent {
      callOnMainActor(value, call: call, mailbox: mailbox)
      return
    }
    let starts = mailbox.post(value)
    #if DEBUG
    mailbox.oweEnclosingScope()
    #endif
    guard starts else { return }
    startJob()
  }

  /// Starts the main-actor job that drains what waits (see `MainActorNow.startJob(_:)`).
  @inlinable
  func startJob() {
    MainActorNow.startJob { self.drain() }
  }

  /// The drain of a main-actor job (see ``MainActorCalling/drainFromJob(_:)``).
  @inlinable
  func drain() {
    drainFromJob { drainHere() }
  }

  /// The drain, called only right after ``MainActorNow/isCurrent`` held on this thread, or
  /// from ``drain()``: the handler runs as main-actor code here, without a closure per value.
  @inlinable
  func drainHere() {
    mailbox.drain { handler, value in handler.body(value) }
  }

  @usableFromInline
  func finish() {
    _ = operate(self, .finish)
  }

  @usableFromInline
  func dispose() {
    _ = operate(self, .dispose)
  }

  @usableFromInline
  var isDisposed: Bool { operate(self, .isClosed) != 0 }

  package var drainsStarted: Int { operate(self, .drainsStarted) }
}

/// A main-actor subscription that calls its handler at once where main-actor code may run
/// (`MainActorDelivery`, `MainActorSubscription`): the synchronous call and the job's drain, written
/// once for both.
///
/// `isCalling` and `drainsAfterCall` are bound to the main actor: read and written only where
/// ``MainActorNow/isCurrent`` holds (in ``callOnMainActor(_:call:mailbox:)``, called right
/// after that check, and in ``drainFromJob(_:)`` after its precondition). Such code never
/// overlaps: it is the main thread's, or a main-queue block's, and the main queue runs its
/// blocks one at a time and never beside the main thread's own code (see `MainActorNow`); the
/// queue orders each block after the code before it. So neither needs a lock, and the
/// conformers' `nonisolated(unsafe)` only says what the compiler cannot see: the actor that
/// guards them. Both are plain Bools, never a user closure. Unchecked exclusivity: every
/// access is a single load or store, none spans a call.
@usableFromInline
protocol MainActorCalling: AnyObject {
  associatedtype Value: Sendable
  /// True while a synchronous call runs the handler.
  var isCalling: Bool { get set }
  /// Set when a value came, or a main-actor job asked to drain, during that call: the call
  /// drains what waits once the handler returns.
  var drainsAfterCall: Bool { get set }
  /// Delivers what waits, on the main actor.
  func drainHere()
}

extension MainActorCalling {
  /// Calls `call` with `value` at once, where ``MainActorNow/isCurrent`` just held, unless a
  /// drain runs or values wait in `mailbox` (then `value` waits behind them, and that drain
  /// delivers it).
  ///
  /// One lock hold at most: the call does not mark the mailbox as draining. `isCalling` keeps
  /// a value that comes during it (a re-entrant notification, or a main-actor job that a
  /// nested run loop starts) from being delivered inside it. The epoch is loaded before the
  /// mailbox's state (see `DeliveryMailbox.startCall`). When nothing is marked
  /// (`DeliveryMailbox.isIdle`, one load), the call needs no lock hold: nothing waits that it
  /// could overtake, and what comes from another thread after that load came during the
  /// call. Such a value starts a drain (a main-actor job) and moves the epoch; the epoch
  /// tells after the handler returns, and this call delivers it right then, as the drain the
  /// call used to mark would have (the job then finds nothing, or values posted after it, in
  /// order). `call` is held by the caller for the call, so a `dispose()` on another thread
  /// releases nothing this call uses.
  @inlinable
  func callOnMainActor<Handler>(_ value: Value, call: MainActorCall<Value>, mailbox: DeliveryMailbox<Value, Handler>) {
    if isCalling {
      if mailbox.post(value) { drainsAfterCall = true }
      return
    }
    let epoch = mailbox.epoch
    guard mailbox.isIdle || mailbox.startCall(with: value) else {
      // Queued behind a main-actor job's drain, which a firing then waits for.
      #if DEBUG
      mailbox.oweEnclosingScope()
      #endif
      return
    }
    schedulePoint("mainActor.call: nothing waits; calling without the lock")
    isCalling = true
    call.body(value)
    isCalling = false
    schedulePoint("mainActor.call: the handler returned; checking for values posted during it")
    if drainsAfterCall || mailbox.postedSince(epoch) {
      drainsAfterCall = false
      drainHere()
    }
  }

  /// The drain of a main-actor job (a task or a main-queue block): checks once that it runs
  /// where main-actor code may run, trapping otherwise (see `MainActorCall`), then runs
  /// `drain`, unless a synchronous call is under way (the job started inside it, from a
  /// nested run loop): that call drains on return.
  @inlinable
  func drainFromJob(_ drain: () -> Void) {
    precondition(MainActorNow.isCurrent, "a main-actor handler's drain off the main actor")
    if isCalling {
      drainsAfterCall = true
      return
    }
    drain()
  }
}
