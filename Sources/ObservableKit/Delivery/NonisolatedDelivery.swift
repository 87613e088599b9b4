/// One subscription whose handler is nonisolated (`observe { }` registered from nonisolated
/// code): called on the notifying thread, before the notification returns, with no task, on
/// every OS version; one call at a time, in order.
///
/// When a value comes while another thread is calling the handler, it waits in the mailbox
/// and that thread delivers it right after its current call (`DeliveryMailbox`'s invariant:
/// one drain at a time). So the calls never overlap, and the lock hand-off orders each call
/// after the one before, whichever thread makes it.
@usableFromInline
final class NonisolatedDelivery<Value: Sendable>: Disposable, CallingDelivery, DrainCounting {
  @usableFromInline typealias Handler = @Sendable (Value) -> Void

  @usableFromInline let mailbox: DeliveryMailbox<Value, LentHandler>
  /// The mailbox's ending and inspecting operations, specialized where the subscription is
  /// made (see `DeliveryOperation`).
  @usableFromInline let operate: @Sendable (NonisolatedDelivery, DeliveryOperation) -> Int

  /// Subscribes `handler` through `subscribe`.
  @inlinable
  convenience init(handler: @escaping Handler, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    self.init(call: SendableCall(handler), subscribe: subscribe)
  }

  /// Subscribes `call` through `subscribe`; see ``init(handler:subscribe:)``.
  @inlinable
  init(call: SendableCall<Value>, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: LentHandler())
    operate = { delivery, operation in delivery.mailbox.perform(operation) }
    let feed = DeliveryCallFeed(self, call: call)
    mailbox.attach(subscribe { feed($0) })
  }

  /// Takes in a value; the handler, `call`, is lent by the feed (see `DeliveryCallFeed`).
  @inlinable
  func enqueue(_ value: Value, lending call: SendableCall<Value>) {
    guard mailbox.startDrain(with: value) else { return }
    schedulePoint("isolated.drain: a value taken; calling outside the lock")
    call.body(value)
    // The drain runs inside the feed's call, so the lent handler serves the values that
    // wait too; the mailbox only says whether it is still open.
    while let (_, value) = mailbox.next() {
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
