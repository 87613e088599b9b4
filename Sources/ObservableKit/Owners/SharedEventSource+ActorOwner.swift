// Actors as owners of subscriptions of the shared family.
//
// Inside an actor, `observe(with: self) { me, value in me.count += value }` needs the handler
// to run isolated to the owner: its parameter is `isolated Owner`, and each call is a job on
// the owner's executor. Owner-bound observation otherwise works as for any owner: the owner
// is held weakly, the handler receives it strongly, and once it has gone nothing more is
// delivered.

extension SharedEventSource {
  /// Registers `handler` for as long as the actor `owner` is alive, running it isolated to
  /// `owner`: the handler may read and change the actor's state with no `await`.
  ///
  /// ```swift
  /// actor Tally {
  ///   var total = 0
  ///   init(counts: SharedEvent<Int>) {
  ///     counts.observe(with: self) { tally, count in tally.total += count }
  ///   }
  /// }
  /// ```
  ///
  /// - Each value is a job on the actor's executor, enqueued in the order the source
  ///   delivered the values, and the calls run one at a time, never overlapping: the value
  ///   `n + 1` is handed over only after the call for `n` returned. Calls are never made
  ///   synchronously by the notifying code, even on the actor itself.
  /// - `owner` is held weakly: the subscription does not keep the actor alive. It is held
  ///   strongly only while values of this subscription wait or run on it. Once it has gone,
  ///   nothing is delivered and the subscription ends at the source's next value, or
  ///   earlier when a sweep of dead owners finds it, as for any owner.
  /// - Works in the actor's `init`: once every stored property has a value, `self` may be
  ///   passed as the owner. Values arrive only after `init` returns, since they run on the
  ///   actor.
  ///
  /// You need not keep the returned disposable; dispose it to end the subscription early.
  /// A call whose value was taken just before the disposal may still run.
  @discardableResult
  public func observe<Owner: Actor>(
    with owner: Owner,
    _ handler: @escaping @Sendable (isolated Owner, Value) -> Void
  ) -> any Disposable {
    ExternalOwner.subscribe(owner) { external in
      let delivery = ActorOwnerDelivery(owner: external, call: handler)
      let feed = delivery.makeFeed()
      delivery.attach(observeNonisolated { feed($0) })
      return delivery
    }
  }
}

extension SharedProperty {
  /// Registers `handler` with the current value, then every later value, for as long as the
  /// actor `owner` is alive, running it isolated to `owner`; see `observe(with:_:)` of
  /// `SharedEventSource` with an actor owner. ``unsubscribe(_:)`` with the owner ends it too.
  @discardableResult
  public func observe<Owner: Actor>(
    with owner: Owner,
    _ handler: @escaping @Sendable (isolated Owner, T) -> Void
  ) -> any Disposable {
    // The storage keeps the owner's link (`register(owner:)`): it counts, unsubscribes and
    // sweeps the subscription, so the subscription is not listed too (see `OwnerLifetime`).
    let delivery = ActorOwnerDelivery(owner: ExternalOwner.weak(owner), call: handler)
    let feed = delivery.makeFeed()
    delivery.attach(property.register(owner: owner, replay: true) { _, update in feed(update.value) })
    return delivery
  }

  /// Calls `block` with the new and the old value each time the property is set, for as
  /// long as the actor `observer` is alive, isolated to it; the owner, order and lifetime
  /// rules are those of `observe(with:_:)` of `SharedEventSource` with an actor owner. It
  /// does not hear the current value.
  ///
  /// - Returns: A disposable that ends this subscription early; ``unsubscribe(_:)`` ends all
  ///   subscriptions of `observer` at once.
  @discardableResult
  public func subscribe<Observer: Actor>(
    _ observer: Observer,
    block: @escaping @Sendable (isolated Observer, _ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    // The storage keeps the owner's link, as in `observe(with:_:)` above.
    let delivery = ActorOwnerDelivery<Observer, (T, T)>(owner: ExternalOwner.weak(observer)) { observer, values in
      block(observer, values.0, values.1)
    }
    let feed = delivery.makeFeed()
    delivery.attach(property.register(owner: observer, replay: false) { _, update in
      feed((update.value, update.oldValue))
    })
    return delivery
  }
}

extension SharedEventHub {
  /// Registers `handler` for every later post of `message` for as long as the actor `owner`
  /// is alive, running it isolated to `owner`; see
  /// `observe(with:_:)` of `SharedEventSource` with an actor owner.
  @discardableResult
  public func observe<Payload: Sendable, Owner: Actor>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    with owner: Owner,
    _ handler: @escaping @Sendable (isolated Owner, Payload) -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(with: owner, handler)
  }
}

/// One subscription owned by an actor: values wait in a ``DeliveryMailbox`` and one drain at
/// a time runs on the owner, which it holds weakly and loads as each value arrives.
///
/// The drain follows `DeliveryMailbox`'s invariant: it takes the next value just before the
/// call, so values are handled in order and never two at once; a call whose value was taken
/// just before `dispose()` may still run.
final class ActorOwnerDelivery<Owner: Actor, Value: Sendable>: Disposable, FedDelivery {
  typealias Call = @Sendable (isolated Owner, Value) -> Void

  private let mailbox: DeliveryMailbox<Value, Call>
  private let external: ExternalOwner<Owner>
  private let upstream = DisposableSlot()

  init(owner: ExternalOwner<Owner>, call: @escaping Call) {
    external = owner
    mailbox = DeliveryMailbox(handler: call)
  }

  /// Connects the delivery to the subscription that feeds it.
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  /// The function the upstream handler calls with each value; see `DeliveryFeed`.
  func makeFeed() -> DeliveryFeed<ActorOwnerDelivery> {
    DeliveryFeed(self)
  }

  func enqueue(_ value: Value) {
    // Loaded as the value arrives: the drain runs on the owner, so its task holds it.
    guard let owner = external.owner(endingIfGone: self) else { return }
    guard mailbox.post(value) else { return }
    #if DEBUG
    // The drain counts as in flight from this notification until it has run every value.
    let inFlight = DeliveriesInFlight.begin()
    Task {
      await self.drain(on: owner)
      DeliveriesInFlight.end(inFlight)
    }
    #else
    Task { await self.drain(on: owner) }
    #endif
  }

  /// Calls the handler with each waiting value, in order, isolated to the owner.
  private func drain(on owner: isolated Owner) {
    mailbox.drain { call, value in
      schedulePoint("actorOwner.drain: a value taken; calling outside the lock")
      call(owner, value)
    }
  }

  func finish() {
    mailbox.finish()
  }

  func dispose() {
    upstream.dispose()
    mailbox.close()
  }

  var isDisposed: Bool { mailbox.isClosed }
}
