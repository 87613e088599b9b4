// Owner-bound observation of the shared family (`observe(with: owner) { owner, value in … }`),
// with a handler that keeps the caller's isolation.
//
// Each handler is delivered as `observe { }` delivers it (see `IsolatedDelivery.observe`):
// - nonisolated: on the notifying thread, before the notification returns, one call at a
//   time, in order;
// - main actor: at once where the caller runs on the main actor and nothing of the
//   subscription waits (`MainActorDelivery`), otherwise one main-actor job per burst;
// - any other actor: enqueued to it, one job per burst (`IsolatedDelivery`).
// This holds on every OS version: no call needs an immediate task.
//
// What waits holds the owner weakly; each call loads it as it starts and passes it strongly,
// so nothing is delivered once its deinit has begun. The first value that reaches the source's
// handler after the owner has gone ends the subscription, and dead owners are swept as
// owner-bound subscriptions are added: on the source's storage for ``SharedEvent`` (and
// ``SharedProperty``, see its `register`), which keeps the owner's link beside the
// subscription; in the process-wide list of `OwnerLifetime` for other sources.

extension SharedEventSource {
  /// Registers `handler` for as long as `owner` is alive, passing the owner in, so the
  /// handler needs no `[weak self]`. The handler keeps the isolation of the caller and runs
  /// as an ``observe(_:fileID:line:)`` handler does, on every OS version (see ``SharedEvent``).
  ///
  /// `owner` is held weakly, also while a value waits for the handler's actor, and passed
  /// to the handler strongly; once its deinit has begun, nothing is delivered and the next
  /// value ends the subscription. You need not keep the returned disposable.
  @inlinable @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    with owner: Owner,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Owner, Value) -> Void
  ) -> any Disposable {
    // Known statically where the call is specialized: a `SharedEvent` keeps the owner's link
    // on its storage, with no process-wide list.
    if let event = self as? SharedEvent<Value> {
      return event.observeOwnerBound(with: owner, handler)
    }
    return observeOwnerBoundThroughAPI(with: owner, IsolatedOwnerCall(handler))
  }

  /// The owner-bound subscription of a source known only by its public API: the source's
  /// handler checks the owner for each value, and the subscription is listed with its owner
  /// in `OwnerLifetime`'s list, swept as owner-bound subscriptions are added.
  @usableFromInline
  func observeOwnerBoundThroughAPI<Owner: AnyObject & Sendable>(
    with owner: Owner,
    _ call: IsolatedOwnerCall<Owner, Value>
  ) -> any Disposable {
    ExternalOwner.subscribe(owner) { external in
      // Filled once the delivery exists: the source's handler ends it through this slot.
      let ending = DisposableSlot()
      let delivery = call.delivery(owner: external.reference) { forward in
        observeNonisolated { value in
          if external.owner(endingIfGone: ending) != nil { forward(value) }
        }
      }
      ending.fill(delivery)
      return delivery
    }
  }
}

extension SharedEvent {
  /// ``SharedEventSource/observe(with:_:)`` on a plain event: the storage keeps the owner's
  /// link beside the subscription, as ``ObservableEvent/observe(with:_:)`` does (it counts,
  /// sweeps and ends it; see `OwnerLink`), and a nonisolated handler is called by one object
  /// that is the link, the storage's handler, the serializing mailbox's owner and the token.
  /// A replaying event, or one fed by an async sequence, registers through its public API.
  @inlinable
  func observeOwnerBound<Owner: AnyObject & Sendable>(
    with owner: Owner,
    _ handler: @escaping @isolated(any) @Sendable (Owner, T) -> Void
  ) -> any Disposable {
    let call = IsolatedOwnerCall(handler)
    // Tested, not bound: see `observeNonisolated`.
    guard source == nil, event.replay == nil else { return observeOwnerBoundThroughAPI(with: owner, call) }
    let storage = event.storage
    if call.isolation == nil {
      return NonisolatedOwnerDelivery.observe(owner, call, on: storage)
    }
    return call.delivery(owner: WeakReference(owner)) { forward in
      OwnerForward.subscribe(forward, owner: owner, on: storage)
    }
  }
}

/// An owner-bound handler in the form its delivery calls: a plain function taking the owner,
/// with the isolation it is bound to.
///
/// Soundness of the `@unchecked Sendable`: `body` is made, once, at subscription, from the
/// user's `@isolated(any) @Sendable` handler (``init(_:)`` and its siblings), retyped as the
/// plain function it is (`IsolatedHandlerBox.retypedWithoutIsolation()` argues why that is
/// called as the handler would be), and `isolation` is that handler's own.
/// `IsolatedDelivery.route(isolation:_:through:)` calls it only as `observe { }` calls a handler of that isolation:
/// nonisolated (a `@Sendable` function: from any thread, one call at a time), on the main
/// actor (where `MainActorDelivery` has checked that main-actor code runs now, trapping
/// otherwise), or on another actor (in `IsolatedDelivery`'s drain, isolated to that actor and
/// checked there). Nothing else calls it, and nothing hands it out.
@usableFromInline
struct IsolatedOwnerCall<Owner: AnyObject, Value>: @unchecked Sendable {
  @usableFromInline let isolation: (any Actor)?
  @usableFromInline let body: (Owner, Value) -> Void

  /// `handler` as the plain function it is, bound to its own isolation.
  @inlinable
  init(_ handler: @escaping @isolated(any) @Sendable (Owner, Value) -> Void) {
    isolation = handler.isolation
    body = IsolatedBox(body: handler).retypedWithoutIsolation().body
  }

  /// A call of `body`, made from a handler already bound to `isolation` (a `IsolatedOwnerCall`
  /// of another value type, or ``OwnerBlockRetyping``'s conversion).
  @inlinable
  init(isolation: (any Actor)?, body: @escaping (Owner, Value) -> Void) {
    self.isolation = isolation
    self.body = body
  }

  /// The call of one value: loads the owner as it starts, and passes it strongly; nothing
  /// once it has gone (its deinit has begun).
  @inlinable
  func loadingOwner(_ owner: WeakReference) -> @Sendable (Value) -> Void {
    { value in
      guard let loaded = owner.object else { return }
      self.body(unsafeDowncast(loaded, to: Owner.self), value)
    }
  }

  /// An owner-bound handler, and the same function without its isolation.
  @usableFromInline struct IsolatedBox: IsolatedHandlerBox {
    @usableFromInline typealias Plain = SendableBox
    @usableFromInline let body: @isolated(any) @Sendable (Owner, Value) -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Owner, Value) -> Void) { self.body = body }
  }
  @usableFromInline struct SendableBox { @usableFromInline let body: @Sendable (Owner, Value) -> Void }
}

/// The retyping of an owner-bound handler of two values (``SharedProperty/subscribe(_:block:)-2l52k``),
/// as ``IsolatedOwnerCall/init(_:)`` retypes one of one value; the caller binds the result to
/// the handler's isolation (``IsolatedOwnerCall/init(isolation:body:)``).
enum OwnerBlockRetyping<Owner, A, B> {
  typealias Isolated = @isolated(any) @Sendable (Owner, A, B) -> Void

  static func plain(_ handler: @escaping Isolated) -> (Owner, A, B) -> Void {
    IsolatedBox(body: handler).retypedWithoutIsolation().body
  }

  private struct IsolatedBox: IsolatedHandlerBox {
    typealias Plain = SendableBox
    let body: Isolated
  }
  private struct SendableBox { let body: @Sendable (Owner, A, B) -> Void }
}

extension IsolatedOwnerCall where Value: Sendable {
  /// The delivery of this owner-bound call, by its isolation: the call loading `owner` for
  /// each value, given to the one choice of a delivery (``IsolatedDelivery/route(isolation:_:through:)``);
  /// `subscribe` registers the function it is given on the source, behind the source's own
  /// owner check.
  @inlinable
  func delivery(
    owner: WeakReference,
    through subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) -> any AnyObject & Disposable {
    IsolatedDelivery.route(isolation: isolation, loadingOwner(owner), through: subscribe)
  }
}

/// The storage's handler of an owner-bound subscription whose calls a delivery makes (the
/// main-actor and actor routes on a ``SharedEvent``): the owner's link, checked for each
/// value; the first value that finds the owner gone ends the subscription instead of being
/// forwarded. The closure the storage keeps captures only this object.
@usableFromInline
final class OwnerForward<Value>: OwnerLink {
  @usableFromInline let storage: ObserverStorage<Value, Void>
  @usableFromInline let id: UInt64
  @usableFromInline let forward: @Sendable (Value) -> Void

  @inlinable
  init(owner: AnyObject, storage: ObserverStorage<Value, Void>, id: UInt64, forward: @escaping @Sendable (Value) -> Void) {
    self.storage = storage
    self.id = id
    self.forward = forward
    super.init(owner)
  }

  /// Registers `forward` on `storage` for as long as `owner` is alive.
  @inlinable
  static func subscribe(
    _ forward: @escaping @Sendable (Value) -> Void,
    owner: AnyObject,
    on storage: ObserverStorage<Value, Void>
  ) -> any Disposable {
    let id = storage.addOwnerBound(
      { id in
        let link = OwnerForward(owner: owner, storage: storage, id: id, forward: forward)
        return ({ link.call($0) }, link)
      },
      reading: { _, _ in () }
    ).id
    return InlineSubscription(storage: storage, id: id)
  }

  @inlinable
  func call(_ value: Value) {
    guard owner != nil else {
      storage.remove(id)
      return
    }
    forward(value)
  }
}

/// The owner-bound subscription of a nonisolated handler on a ``SharedEvent``: one object is
/// the owner's link the storage keeps, the context of the storage's handler, the state that
/// keeps the calls from overlapping, and the token. It allocates nothing else: its state is
/// guarded by the storage's own lock, so it needs no lock of its own.
///
/// It calls as `NonisolatedDelivery` does, and keeps `DeliveryMailbox`'s invariant under the
/// storage's lock: on the notifying thread, before the notification returns. `isDraining` is
/// set from the moment a thread takes a value for a call until ``next()`` finds nothing
/// waiting, so at most one thread calls the handler; a value that comes meanwhile waits, and
/// that thread delivers it right after its current call. The calls never overlap, and the
/// lock hand-off orders each after the one before, whichever thread makes it. The handler is
/// called outside the lock (the storage calls its handlers outside it too); ``end()``
/// clears the call and what waits under the same lock hold that removes the storage's
/// handler, so no value is taken for a call once it returns (a call whose value was taken
/// just before may still run, as for a pass in progress), and releases them outside it. The
/// owner is loaded as each call starts: a value that finds it gone ends the subscription.
@usableFromInline
final class NonisolatedOwnerDelivery<Owner: AnyObject, Value: Sendable>: OwnerLink, Disposable, @unchecked Sendable {
  // `@unchecked Sendable`: the variables below are guarded by `storage`'s lock (its
  // `withLock`), which also makes the runtime exclusivity checks redundant; the other stored
  // properties are immutable and Sendable, but the storage, whose lock guards all of its
  // state, and the link's weak owner, which the runtime loads atomically and which is never
  // written after init. The call is `@Sendable` in substance: `IsolatedOwnerCall` of a
  // nonisolated handler.
  @usableFromInline let storage: ObserverStorage<Value, Void>
  /// The subscription's id in the storage: written once, under the storage's lock, by the
  /// add that publishes the storage's handler and before the token is returned; read only
  /// under that lock.
  @exclusivity(unchecked) @usableFromInline var id: UInt64 = 0
  /// Nil once ended.
  @exclusivity(unchecked) @usableFromInline var call: IsolatedOwnerCall<Owner, Value>?
  /// Set while a thread calls the handler (see the invariant above).
  @exclusivity(unchecked) @usableFromInline var isDraining = false
  /// The values that came during a call, in order.
  @exclusivity(unchecked) @usableFromInline var waiting = DeliveryBuffer<Value>()
  /// ``dispose()`` and ``isDisposed``, specialized where the subscription is made: they are
  /// reached through `any Disposable`'s witness table, which holds the unspecialized generic
  /// bodies (see `DeliveryOperation`). Captures nothing.
  @usableFromInline let operate: @Sendable (NonisolatedOwnerDelivery, DeliveryOperation) -> Bool

  @inlinable
  init(owner: Owner, call: IsolatedOwnerCall<Owner, Value>, storage: ObserverStorage<Value, Void>) {
    self.storage = storage
    self.call = call
    operate = { delivery, operation in
      switch operation {
      case .isClosed:
        return delivery.storage.withLock { header in
          delivery.call == nil || header.bag.payload(of: delivery.id) == nil
        }
      default:
        delivery.end()
        return true
      }
    }
    super.init(owner)
  }

  /// Registers `call`, a nonisolated handler's, on `storage` for as long as `owner` is alive.
  @inlinable
  static func observe(
    _ owner: Owner,
    _ call: IsolatedOwnerCall<Owner, Value>,
    on storage: ObserverStorage<Value, Void>
  ) -> NonisolatedOwnerDelivery {
    // Made first, and given its id under the lock of the add (a variable the add's closure
    // wrote back was boxed: an allocation per subscription).
    let delivery = NonisolatedOwnerDelivery(owner: owner, call: call, storage: storage)
    _ = storage.addOwnerBound(
      { id in
        delivery.id = id
        return ({ delivery.enqueue($0) }, delivery)
      },
      reading: { _, _ in () }
    )
    return delivery
  }

  /// Calls the handler with `value` now, unless a call runs on another thread (then `value`
  /// waits, and that thread delivers it), then with what came meanwhile.
  @inlinable
  func enqueue(_ value: Value) {
    guard callFirst(value) else { return }
    while let (call, value) = next() {
      schedulePoint("owner.nonisolated: a value taken; calling outside the lock")
      guard let owner else {
        end()
        continue
      }
      call.body(unsafeDowncast(owner, to: Owner.self), value)
    }
  }

  /// Calls the handler with `value` if no call runs; returns whether it did (the caller then
  /// delivers what came meanwhile). The owner is held for this call only.
  @inlinable
  func callFirst(_ value: Value) -> Bool {
    guard let owner else {
      end()
      return false
    }
    let started = storage.withLock { _ -> IsolatedOwnerCall<Owner, Value>? in
      guard let call else { return nil }
      if isDraining {
        waiting.append(value)
        return nil
      }
      isDraining = true
      return call
    }
    guard let started else { return false }
    schedulePoint("owner.nonisolated: a value taken; calling outside the lock")
    started.body(unsafeDowncast(owner, to: Owner.self), value)
    return true
  }

  /// The next value that waits, with the call; nil ends the drain.
  @inlinable
  func next() -> (IsolatedOwnerCall<Owner, Value>, Value)? {
    storage.withLock { _ in
      if let call, let value = waiting.popFirst() { return (call, value) }
      isDraining = false
      return nil
    }
  }

  /// Ends the subscription in one hold of the storage's lock: removes the storage's handler
  /// and drops the call and what waits, all released outside the lock. No value is taken for
  /// a call once this returns.
  @inlinable
  func end() {
    let storage = storage
    let released = storage.withLock { header in
      let entry = header.endOwnEntry(id)
      if entry != nil { storage.advanceEpochLocked() }
      defer {
        call = nil
        waiting = DeliveryBuffer()
      }
      return (entry, call, waiting)
    }
    if released.0 != nil { LiveSubscriptions.changed(by: -1) }
    schedulePoint("storage.remove: the handler is released outside the lock")
    withExtendedLifetime(released) {}
  }

  @usableFromInline
  func dispose() {
    _ = operate(self, .dispose)
  }

  /// The storage ended the subscription (its owner swept, or the event released): this
  /// object is also the token, which its user may keep, so the call goes now too.
  @usableFromInline
  override func storageEnded() {
    _ = operate(self, .dispose)
  }

  /// Disposed, or ended by the storage: its owner swept, or the event released.
  @usableFromInline
  var isDisposed: Bool { operate(self, .isClosed) }
}
