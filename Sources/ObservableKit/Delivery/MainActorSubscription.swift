/// A main-actor subscription kept in the source's own storage: what `SharedEvent.observe { }`
/// makes for a handler isolated to the main actor. One object, which the storage's handler
/// captures; the user's token is the storage's own (`InlineSubscription`). A subscription
/// whose values never have to wait costs this object and its entry, nothing more.
///
/// Values are delivered by the rules of `MainActorDelivery` (those of `observe` on the main
/// actor, on every OS version): at once when the value comes where main-actor code may run
/// now (``MainActorNow/isCurrent``) and nothing of this subscription waits; otherwise in
/// order, by one main-actor job per burst. What waits needs a mailbox, made by the first
/// value that must wait (``makeMailbox()``). The storage keeps it beside the subscription as
/// the subscription's link, so that `dispose()`, which goes through the storage, drops what
/// waits, and a source that ends its subscriptions lets what waits be delivered first.
///
/// Why not `MainActorDelivery` over `observeNonisolated`: that is three objects per
/// subscription (the token, its mailbox's lock and the feed the source calls), measured at
/// 273 bytes and 2.2× the closure array's churn (the S16 and S17 rows). Only a subscription
/// whose values hop needs the mailbox, and the token was needed only because the source's
/// own could not reach the mailbox; the storage's link reaches it.
///
/// How a value finds the mailbox, with no atomic load and no lock per value: making it
/// replaces the storage's handler, under the storage's lock, with one that calls
/// ``receiveWithMailbox(_:)``, and advances the storage's epoch.
/// - A pass that reaches this subscription after that takes its handler under the lock (a
///   pass checks the epoch before each call and takes a fresh snapshot when it moved), so it
///   calls the new handler, and the lock orders the write of ``mailbox`` before its read.
/// - A pass that reached the old handler (``receive(_:)``) before that never reads
///   ``mailbox`` outside the lock: off the main actor it posts through ``makeMailbox()``,
///   which takes the lock; on the main actor it calls at once, as a value that came before
///   the mailbox was made, and a moved epoch after the call sends it to look, under the lock,
///   for values that came during the call.
///
/// Soundness of the `@unchecked Sendable` (the storage calls this object from any thread,
/// and the mailbox holds it):
/// - `call`, `storage` and `id` never change. `call` is main-actor code bound to the main
///   actor (`MainActorCall`), called only right after ``MainActorNow/isCurrent`` held on this
///   thread, or from a main-actor job whose drain checks it again with a precondition, so a
///   wrong path traps instead of racing;
/// - `isCalling` and `drainsAfterCall` are read and written only where `isCurrent` holds
///   (main-actor code never overlaps itself; see `MainActorCalling`);
/// - ``mailbox`` is written once, under the storage's lock, and read under it or, as argued
///   above, by code the lock ordered after the write.
@usableFromInline
final class MainActorSubscription<Value: Sendable, State>: MainActorCalling, @unchecked Sendable {
  @usableFromInline typealias Mailbox = MainActorMailbox<Value, State>

  @usableFromInline let call: MainActorCall<Value>
  /// The storage's buffer, unowned: this object is called only from the storage's passes,
  /// which hold the storage, and only those calls use it.
  @usableFromInline unowned(unsafe) let storageObject: AnyObject
  @usableFromInline let id: UInt64
  /// The mailbox, once a value had to wait. Guarded by the storage's lock (see the type's
  /// discussion). Unchecked exclusivity: every access is a single load or store.
  @exclusivity(unchecked) @usableFromInline var mailbox: Mailbox?
  /// Main-actor state (see `MainActorCalling`).
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var isCalling = false
  @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var drainsAfterCall = false

  @inlinable
  init(call: MainActorCall<Value>, storage: AnyObject, id: UInt64) {
    self.call = call
    storageObject = storage
    self.id = id
  }

  /// Registers `call` on `storage`, as a subscription the storage keeps, and returns the
  /// storage's own token for it.
  @inlinable
  static func observe(_ call: MainActorCall<Value>, on storage: ObserverStorage<Value, State>) -> any Disposable {
    let object = storage.identity
    let id = storage.add(
      { id in
        let entry = MainActorSubscription(call: call, storage: object, id: id)
        return { entry.receive($0) }
      },
      reading: { _, _ in () }
    ).id
    return InlineSubscription(storage: storage, id: id)
  }

  @inlinable
  var storage: ObserverStorage<Value, State> { ObserverStorage(unsafeIdentity: storageObject) }

  /// The storage's handler until a value has to wait: no mailbox was made when the pass took
  /// this handler.
  @inlinable
  func receive(_ value: Value) {
    guard MainActorNow.isCurrent else {
      guard let mailbox = makeMailbox() else { return }
      let starts = mailbox.post(value)
      #if DEBUG
      mailbox.waiting.oweEnclosingScope()
      #endif
      if starts { mailbox.startJob() }
      return
    }
    if isCalling {
      receiveDuringCall(value)
      return
    }
    let epoch = storage.epoch
    schedulePoint("mainActorEntry.call: no mailbox; calling without the lock")
    isCalling = true
    call.body(value)
    isCalling = false
    if storage.epoch != epoch { deliverWhatCameDuringCall() }
  }

  /// The storage's handler once the mailbox exists: the call of every main-actor delivery
  /// (``MainActorCalling/callOnMainActor(_:call:mailbox:)``, argued there).
  @inlinable
  func receiveWithMailbox(_ value: Value) {
    // Written before this handler was published, under the lock (see the type).
    let mailbox = self.mailbox.unsafelyUnwrapped
    guard MainActorNow.isCurrent else {
      let starts = mailbox.post(value)
      #if DEBUG
      mailbox.waiting.oweEnclosingScope()
      #endif
      if starts { mailbox.startJob() }
      return
    }
    callOnMainActor(value, call: call, mailbox: mailbox.waiting)
  }

  /// A value that comes during a call on the main actor (a main-actor job that a nested run
  /// loop runs): it waits, and the call delivers it once the handler returns.
  @inlinable @inline(never)
  func receiveDuringCall(_ value: Value) {
    if let mailbox = makeMailbox(), mailbox.post(value) { drainsAfterCall = true }
  }

  /// After a call on the main actor during which the storage's epoch moved: if a mailbox was
  /// made meanwhile, what came during the call waits there and is delivered now, right after
  /// the call, as a drain would.
  @inlinable @inline(never)
  func deliverWhatCameDuringCall() {
    schedulePoint("mainActorEntry.call: the epoch moved during the call; looking for a mailbox")
    guard let mailbox = storage.withLock({ _ in self.mailbox }) else { return }
    drainsAfterCall = false
    drainHere(mailbox)
  }

  /// The mailbox, made once under the storage's lock and kept beside the subscription as its
  /// link; nil once the subscription has ended (the value is dropped, as for a pass in
  /// progress when `dispose()` returned). Out of line: the first value that waits.
  @inlinable @inline(never)
  func makeMailbox() -> Mailbox? {
    let storage = storage
    return storage.withLock { header -> Mailbox? in
      if let mailbox { return mailbox }
      guard header.replaceHandler(of: id, with: ObserverHandler { [self] in receiveWithMailbox($0) }) else {
        return nil
      }
      let made = Mailbox(entry: self)
      mailbox = made
      header.insertLink(made, for: id)
      // Passes in progress take the new handler before they reach this subscription.
      storage.advanceEpochLocked()
      return made
    }
  }

  /// ``drainHere(_:)`` for ``MainActorCalling/callOnMainActor(_:call:mailbox:)``, which this
  /// object calls only from ``receiveWithMailbox(_:)``, once the mailbox exists.
  @inlinable
  func drainHere() {
    drainHere(mailbox.unsafelyUnwrapped)
  }

  /// Delivers what waits, on the main actor: called right after ``MainActorNow/isCurrent``
  /// held, or from a main-actor job's drain, which checked it.
  @inlinable
  func drainHere(_ mailbox: Mailbox) {
    mailbox.waiting.drain { entry, value in
      schedulePoint("mainActorEntry.drain: a value taken; calling outside the lock")
      entry.call.body(value)
    }
  }
}

/// The mailbox of a ``MainActorSubscription`` whose value had to wait: the values in order, and the
/// entry while the mailbox is open (the drain calls its handler). The storage keeps it beside
/// the subscription as the subscription's link, which is how it hears of the end:
/// - `dispose()` removes the subscription through the storage, which calls ``removed()``:
///   the mailbox closes, so no value is taken once `dispose()` returns, and what waits and
///   the entry are released (the job holds this mailbox, not the entry);
/// - a source that ends its subscriptions calls ``storageEnded()``: what waits is delivered
///   first, then the entry is released.
///
/// It is a link with no owner, kept apart from the owners' links (``OwnerLinks/hearing``):
/// never swept, never counted, never found by `removeAll(ownedBy:)`. (With the entry as its
/// weak owner, the entry's reference counts moved to a side table, which made every retain
/// of it in a drain slower: S15 went from 194 to 298 ns per value.)
///
/// `@unchecked Sendable`: the mailbox's state is under its own lock, and the link's owner,
/// a weak reference the runtime loads atomically, is never set.
@usableFromInline
final class MainActorMailbox<Value: Sendable, State>: OwnerLink, DrainCounting, @unchecked Sendable {
  @usableFromInline let waiting: DeliveryMailbox<Value, MainActorSubscription<Value, State>>

  @inlinable
  init(entry: MainActorSubscription<Value, State>) {
    waiting = DeliveryMailbox(handler: entry)
    super.init()
  }

  @inlinable func post(_ value: Value) -> Bool { waiting.post(value) }
  @inlinable var epoch: UInt64 { waiting.epoch }
  @inlinable var isIdle: Bool { waiting.isIdle }
  @inlinable func startCall(with value: Value) -> Bool { waiting.startCall(with: value) }
  @inlinable func postedSince(_ epoch: UInt64) -> Bool { waiting.postedSince(epoch) }

  /// Starts the main-actor job that drains what waits (see `MainActorNow.startJob(_:)`).
  @inlinable
  func startJob() {
    MainActorNow.startJob { self.drain() }
  }

  /// The drain of a main-actor job (see ``MainActorCalling/drainFromJob(_:)``).
  @inlinable
  func drain() {
    // The entry, while the mailbox is open; nil once it closed (nothing to deliver).
    guard let entry = waiting.handler else {
      #if DEBUG
      waiting.endAbandonedDrain()
      #endif
      return
    }
    entry.drainFromJob { entry.drainHere(self) }
  }

  @usableFromInline
  override func removed() {
    waiting.close()
  }

  @usableFromInline
  override func storageEnded() {
    waiting.finish()
  }

  package var drainsStarted: Int { waiting.drainsStarted }
}
