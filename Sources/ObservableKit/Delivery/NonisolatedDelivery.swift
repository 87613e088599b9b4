/// One subscription whose handler is nonisolated (`observe { }` registered from nonisolated
/// code): called on the notifying thread, before the notification returns, with no task, on
/// every OS version; one call at a time, in order.
///
/// When a value comes while another thread is calling the handler, it waits in the mailbox
/// and that thread delivers it right after its current call (`DeliveryMailbox`'s invariant:
/// one drain at a time). So the calls never overlap, and the lock hand-off orders each call
/// after the one before, whichever thread makes it.
final class NonisolatedDelivery<Value: Sendable>: Disposable, FedDelivery, DrainCounting {
  typealias Handler = @Sendable (Value) -> Void

  private let mailbox: DeliveryMailbox<Value, Handler>
  private let upstream = DisposableSlot()

  /// Subscribes `handler` through `subscribe`.
  init(handler: @escaping Handler, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: handler)
    let feed = DeliveryFeed(self)
    upstream.fill(subscribe { feed($0) })
  }

  func enqueue(_ value: Value) {
    guard let handler = mailbox.startDrain(with: value) else { return }
    schedulePoint("isolated.drain: a value taken; calling outside the lock")
    handler(value)
    while let (handler, value) = mailbox.next() {
      schedulePoint("isolated.drain: a value taken; calling outside the lock")
      handler(value)
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

  package var drainsStarted: Int { mailbox.drainsStarted }
}
