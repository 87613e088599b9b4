/// One subscription of the shared family whose handler is isolated to an actor other than
/// the main actor (an `observe { }` registered inside an actor, or an owner-bound handler
/// isolated to one): always enqueued to that actor, in order, one call at a time.
///
/// `observe { }` and `observeChanges { }` give a nonisolated handler to `NonisolatedDelivery`
/// and a main-actor one to `MainActorDelivery`, which call them synchronously where they may
/// on every OS version (see ``observe(_:through:)`` and `IsolationRetyping`); this class delivers
/// the rest.
///
/// Values wait in the mailbox, and one job on the actor drains all that waits: one job per
/// burst, not per value. The drain is a synchronous function isolated to the actor, which
/// calls the handler as the plain function it is (see ``ActorCall``): no task, closure or
/// suspension per value. Like `MainActorDelivery`, the per-value path (``enqueue(_:)``, the
/// drain) is inlinable, so that it is specialized for the value type where the subscription
/// is made (see `DeliveryMailbox` on why specialization matters).
///
/// The drain follows `DeliveryMailbox`'s invariant: it takes the next value just before the
/// call, so a call whose value was taken just before `dispose()` may still run, as for a pass
/// in progress (the schedule explorer runs that interleaving).
@usableFromInline
final class IsolatedDelivery<Value: Sendable>: Disposable, FedDelivery, DrainCounting {
  @usableFromInline let mailbox: DeliveryMailbox<Value, ActorCall<Value>>
  /// The handler's actor, where the drain runs. Weak: the actor often holds this
  /// subscription's token, and the handler, which the mailbox holds until it closes, keeps
  /// the actor alive while values may still be delivered.
  @usableFromInline weak let actor: (any Actor)?
  /// The mailbox's ending and inspecting operations, specialized where the subscription is
  /// made (see `DeliveryOperation`).
  @usableFromInline let operate: @Sendable (IsolatedDelivery, DeliveryOperation) -> Int

  /// Subscribes `call`, bound to `actor`, through `subscribe`.
  @inlinable
  init(actor: any Actor, call: ActorCall<Value>, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: call)
    self.actor = actor
    operate = { delivery, operation in delivery.mailbox.perform(operation) }
    let feed = DeliveryFeed(self)
    mailbox.attach(subscribe { feed($0) })
  }

  /// Delivers to `handler`, with its own isolation, what the subscription `subscribe` makes
  /// hears: the handler retyped once (``IsolatedHandlerBox/retypedWithoutIsolation()``) and
  /// given to ``route(isolation:_:through:)`` with the isolation it had.
  @inlinable
  static func observe(
    _ handler: @escaping @isolated(any) @Sendable (Value) -> Void,
    through subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) -> any Disposable {
    // The nonisolated case is `route`'s first, written out here: built in place, the
    // retyped handler moves into its call; through `route`'s parameter it cost a retain per
    // subscription (check-thresholds.sh, S3s and S8s).
    if handler.isolation == nil {
      return NonisolatedDelivery(
        call: SendableCall(body: IsolationRetyping.IsolatedBox(body: handler).retypedWithoutIsolation().body),
        subscribe: subscribe)
    }
    return route(
      isolation: handler.isolation,
      IsolationRetyping.IsolatedBox(body: handler).retypedWithoutIsolation().body,
      through: subscribe)
  }

  /// The one choice of a shared handler's delivery by its isolation, for `observe { }` and
  /// the owner-bound forms alike. `body` is the handler retyped without its isolation, and
  /// `isolation` the isolation it had (read from the handler itself, so there is nothing to
  /// check): each delivery calls `body` only where that isolation is current.
  ///
  /// A nonisolated handler and a main-actor one are called synchronously where the rules
  /// allow, on every OS version, with no task (`IsolationRetyping` says why that is sound):
  /// - nonisolated: `NonisolatedDelivery`, on the notifying thread;
  /// - main actor (by identity: one question to the runtime, since each read of
  ///   `MainActor.shared` costs a retain and a release): `MainActorDelivery`, the delivery
  ///   of `observe(on: MainActor.shared)`, at once on the main actor, and otherwise one
  ///   main-actor job per burst.
  /// A handler isolated to any other actor gets an `IsolatedDelivery`, drained on its actor.
  ///
  /// Inlinable, so that the deliveries are specialized for the value type where the
  /// subscription is made (see `DeliveryMailbox`).
  @inlinable
  static func route(
    isolation: (any Actor)?,
    _ body: @escaping @Sendable (Value) -> Void,
    through subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) -> any AnyObject & Disposable {
    guard let isolation else {
      return NonisolatedDelivery(call: SendableCall(body: body), subscribe: subscribe)
    }
    if isolation === MainActor.shared {
      return MainActorDelivery(call: MainActorCall(body: body), subscribe: subscribe)
    }
    return IsolatedDelivery(actor: isolation, call: ActorCall(body: body), subscribe: subscribe)
  }

  /// Queues `value` behind what waits; starts the actor's job if none is pending or running.
  @inlinable
  func enqueue(_ value: Value) {
    let starts = mailbox.post(value)
    #if DEBUG
    mailbox.oweEnclosingScope()
    #endif
    guard starts else { return }
    startJob()
  }

  /// Starts the job that drains what waits on the actor. Out of line: the post above then
  /// pays nothing for the task's set-up. The task holds the actor only while it runs.
  @inlinable @inline(never)
  func startJob() {
    // Nil only once the handler, which holds the actor, has been released: the mailbox is
    // closed then, and nothing is left to deliver.
    guard let actor else {
      #if DEBUG
      mailbox.endAbandonedDrain()
      #endif
      return
    }
    Task { await self.drain(on: actor) }
  }

  /// The drain of one job, isolated to the handler's actor by its parameter. The actor is
  /// the one the handler is bound to (``init(actor:call:subscribe:)`` takes the handler's own
  /// isolation, and ``ActorCall`` checked it), and where the runtime can tell, the drain
  /// checks once that it runs there, trapping otherwise, before it calls the handler as the
  /// plain function it is: without a closure, task or suspension per value.
  @inlinable
  func drain(on actor: isolated any Actor) {
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *) {
      actor.preconditionIsolated("an actor-isolated handler's drain off its actor")
    }
    mailbox.drain { call, value in
      schedulePoint("isolated.drain: a value taken; calling outside the lock")
      call.body(value)
    }
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

/// A handler isolated to an actor other than the main actor, held in the form the drain calls
/// it: a plain function (see `MainActorCall` on why the form matters for a specialized drain).
///
/// Soundness of the `@unchecked Sendable`: `body` is the user's `@isolated(any) @Sendable`
/// handler retyped once, at subscription, and paired with the actor its own `isolation` names
/// (`IsolatedHandlerBox.retypedWithoutIsolation()`
/// says why the retyped function is called as the handler would be, and that only its
/// isolation says where it must be called). So it is code of that actor, isolated to it.
/// `IsolatedDelivery` calls it only from its drain, a synchronous function whose `isolated`
/// parameter is that same actor, so the compiler has the drain run on the actor's executor;
/// the drain checks that at run time too where the runtime can (`preconditionIsolated`,
/// from the 14 releases on), trapping instead of racing. The calls never overlap: one drain
/// at a time (`DeliveryMailbox`), and the actor runs one job at a time. No other code calls
/// it, and nothing hands it out. The owner-bound forms build theirs from a handler that takes
/// the owner, retyped the same way (`IsolatedOwnerCall`, `OwnerBlockRetyping`).
@usableFromInline
struct ActorCall<Value>: @unchecked Sendable {
  @usableFromInline let body: (Value) -> Void

  /// `body`, code isolated to the actor the delivery drains on: made from a handler whose own
  /// isolation is that actor (``IsolatedDelivery/route(isolation:_:through:)`` takes the
  /// actor from the handler's `isolation`, so there is nothing to check).
  @inlinable
  init(body: @escaping (Value) -> Void) {
    self.body = body
  }
}
