/// One subscription of the shared family whose handler keeps the isolation of the code
/// that registered it (`@isolated(any)`), called in order, one call at a time.
///
/// `observe { }` and `observeChanges { }` give a nonisolated handler to `NonisolatedDelivery`
/// and a main-actor one to `MainActorDelivery`, which call them synchronously where they may
/// on every OS version (see ``observe(_:through:)`` and `BoundHandler`). This class delivers
/// the rest: handlers isolated to any other actor, and the owner-bound forms, whose call
/// loads the owner first.
///
/// Where the handler runs:
/// - **Nonisolated** (owner-bound forms): on the notifying thread, before the notification
///   returns, when nothing of this subscription waits.
/// - **Main actor** (owner-bound forms): before the notification returns when it is made on
///   the main actor and nothing of this subscription waits; otherwise enqueued to the main
///   actor, behind what waits.
/// - **Any other actor**: enqueued to that actor, in order. Values that come while a drain is
///   pending or running wait in the mailbox, and that one job delivers them: one job per
///   burst, not per value. The drain runs on the actor's executor, so each awaited call
///   starts without a hop or an allocation.
///
/// The owner-bound synchronous cases start an immediate task (SE-0472), which runs on the
/// calling thread up to its first suspension; the drain below never suspends when it already
/// runs with the handler's isolation. Where immediate tasks are unavailable (Apple platforms
/// before 26, or `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1` in a debug build), those calls are
/// enqueued instead, in order.
///
/// The drain follows `DeliveryMailbox`'s invariant. Each drain runs with the handler's own
/// isolation and takes the next value just before the call, which then starts without
/// suspending; a call whose value was taken just before `dispose()` may still run, as for a
/// pass in progress (the schedule explorer runs that interleaving).
@usableFromInline
final class IsolatedDelivery<Value: Sendable>: Disposable, FedDelivery, DrainCounting {
  /// Calls the user's handler with one value. It runs with the caller's isolation, so it adds
  /// no hop to the handler's own.
  typealias Call = nonisolated(nonsending) @Sendable (Value) async -> Void

  /// What the mailbox holds while open: the call, and for the other-actor route the way
  /// into that actor, released with it since it holds the actor, which often holds this
  /// subscription's token.
  private struct Target: Sendable {
    let call: Call
    let proxy: ExecutorProxy?
  }

  private enum Route {
    case nonisolated
    case mainActor
    case actor
  }

  private let mailbox: DeliveryMailbox<Value, Target>
  private let route: Route
  private let upstream = DisposableSlot()

  /// Creates the delivery of `call`, which calls a handler whose isolation is `isolation`;
  /// ``attach(_:)`` connects it to the subscription that feeds ``enqueue(_:)``.
  init(isolation: (any Actor)?, call: @escaping Call) {
    switch isolation {
    case nil:
      route = .nonisolated
      mailbox = DeliveryMailbox(handler: Target(call: call, proxy: nil))
    case let actor? where actor === MainActor.shared:
      route = .mainActor
      mailbox = DeliveryMailbox(handler: Target(call: call, proxy: nil))
    case let actor?:
      route = .actor
      mailbox = DeliveryMailbox(handler: Target(call: call, proxy: ExecutorProxy(actor)))
    }
  }

  /// Connects the delivery to the subscription that feeds it.
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  /// The function the upstream handler calls with each value. Make it once and let only the
  /// upstream handler hold it: when the source releases that handler, the delivery finishes
  /// (see `DeliveryFeed`).
  func makeFeed() -> DeliveryFeed<IsolatedDelivery> {
    DeliveryFeed(self)
  }

  /// Delivers to `handler`, with its own isolation, what the subscription `subscribe` makes
  /// hears.
  ///
  /// A nonisolated handler and a main-actor one are called synchronously where the rules
  /// allow, on every OS version, with no task (`BoundHandler` says why that is sound):
  /// - nonisolated: `NonisolatedDelivery`, on the notifying thread;
  /// - main actor: `MainActorDelivery`, the delivery of `observe(on: MainActor.shared)`, at
  ///   once on the main actor, and otherwise one main-actor job per burst.
  /// A handler isolated to any other actor gets an `IsolatedDelivery`, drained on its actor.
  ///
  /// Inlinable, so that the two synchronous deliveries are specialized for the value type
  /// where the subscription is made (see `DeliveryMailbox`).
  @inlinable
  static func observe(
    _ handler: @escaping @isolated(any) @Sendable (Value) -> Void,
    through subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) -> any Disposable {
    if handler.isolation == nil {
      return NonisolatedDelivery(call: BoundHandler.nonisolatedCall(handler), subscribe: subscribe)
    }
    if BoundHandler.isMainActor(handler) {
      return MainActorDelivery(call: BoundHandler.mainActorCall(handler), subscribe: subscribe)
    }
    return observeOnActor(handler, through: subscribe)
  }

  /// The delivery of a handler isolated to an actor other than the main actor.
  @usableFromInline
  static func observeOnActor(
    _ handler: @escaping @isolated(any) @Sendable (Value) -> Void,
    through subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) -> any Disposable {
    let delivery = IsolatedDelivery(isolation: handler.isolation) { await handler($0) }
    let feed = delivery.makeFeed()
    delivery.attach(subscribe { feed($0) })
    return delivery
  }

  /// Delivers `value` after the values that wait, synchronously where the route allows.
  @usableFromInline
  func enqueue(_ value: Value) {
    guard mailbox.post(value) else { return }
    switch route {
    case .nonisolated:
      if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
        !MainActorNow.simulatesOSBefore26
      {
        Task.immediate { await self.drain() }
      } else {
        Task { await self.drain() }
      }
    case .mainActor:
      if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
        !MainActorNow.simulatesOSBefore26
      {
        Task.immediate { @MainActor in await self.drain() }
      } else {
        Task { @MainActor in await self.drain() }
      }
    case .actor:
      guard let proxy = mailbox.handler?.proxy else { return }
      Task { await proxy.run { _ in await self.drain() } }
    }
  }

  /// Calls the handler with each waiting value, in order. It runs with the handler's
  /// isolation (the caller's), so the await below starts the call without suspending.
  private func drain(isolation: isolated (any Actor)? = #isolation) async {
    while let (target, value) = mailbox.next() {
      schedulePoint("isolated.drain: a value taken; calling outside the lock")
      await target.call(value)
    }
  }

  @usableFromInline
  func finish() {
    mailbox.finish()
  }

  @usableFromInline
  func dispose() {
    upstream.dispose()
    mailbox.close()
  }

  @usableFromInline
  var isDisposed: Bool { mailbox.isClosed }

  package var drainsStarted: Int { mailbox.drainsStarted }
}

/// An actor that runs on another actor's executor, so that code isolated to it runs with that
/// actor's isolation: the way to enter an actor known only as `any Actor`.
private actor ExecutorProxy {
  private let base: any Actor

  init(_ base: any Actor) {
    self.base = base
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    base.unownedExecutor
  }

  func run(_ operation: @Sendable (isolated ExecutorProxy) async -> Void) async {
    await operation(self)
  }
}
