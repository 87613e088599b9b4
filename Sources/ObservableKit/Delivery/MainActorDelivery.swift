import Dispatch

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
final class MainActorDelivery<Value: Sendable>: Disposable, FedDelivery, DrainCounting {
  @usableFromInline typealias Handler = @MainActor (Value) -> Void

  @usableFromInline let mailbox: DeliveryMailbox<Value, MainActorCall<Value>>
  /// The mailbox's ending and inspecting operations, specialized where the subscription is
  /// made (see `DeliveryOperation`).
  @usableFromInline let operate: @Sendable (MainActorDelivery, DeliveryOperation) -> Int

  /// Subscribes `handler` through `subscribe`, to be called on the main actor.
  @inlinable
  init(handler: @escaping Handler, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: MainActorCall(handler))
    operate = { delivery, operation in delivery.mailbox.perform(operation) }
    let feed = DeliveryFeed(self)
    mailbox.attach(subscribe { feed($0) })
  }

  /// Subscribes `call` through `subscribe`; see ``init(handler:subscribe:)``.
  @inlinable
  init(call: MainActorCall<Value>, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: call)
    operate = { delivery, operation in delivery.mailbox.perform(operation) }
    let feed = DeliveryFeed(self)
    mailbox.attach(subscribe { feed($0) })
  }

  @inlinable
  func enqueue(_ value: Value) {
    if MainActorNow.isCurrent {
      // Where main-actor code may run now: call at once unless a drain runs (then the value
      // waits behind what waits, and that drain delivers it).
      guard let handler = mailbox.startDrain(with: value) else { return }
      handler.body(value)
      drainHere()
      return
    }
    guard mailbox.post(value) else { return }
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
      !MainActorNow.simulatesOSBefore26
    {
      Task.immediate { @MainActor in self.drain() }
    } else {
      DispatchQueue.main.async { self.drain() }
    }
  }

  /// The drain of a main-actor job (a task or a main-queue block): checks once that it runs
  /// where main-actor code may run, trapping otherwise (see `MainActorCall`).
  @inlinable
  func drain() {
    precondition(MainActorNow.isCurrent, "a main-actor handler's drain off the main actor")
    drainHere()
  }

  /// The drain, called only right after ``MainActorNow/isCurrent`` held on this thread, or
  /// from ``drain()``: the handler runs as main-actor code here, without a closure per value.
  @inlinable
  func drainHere() {
    while let (handler, value) = mailbox.next() {
      handler.body(value)
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
