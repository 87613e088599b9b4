import Dispatch

/// One subscription delivered on a dispatch queue: values wait in a mailbox and one drain at
/// a time runs on the queue, so calls keep their order even on a concurrent queue (see
/// `DeliveryMailbox` for the invariant of the drain).
final class QueueDelivery<Value: Sendable>: Disposable, FedDelivery {
  private let queue: DispatchQueue
  private let mailbox: DeliveryMailbox<Value, @Sendable (Value) -> Void>
  private let upstream = DisposableSlot()

  /// Subscribes `handler` through `subscribe`, to be called on `queue`.
  init(
    queue: DispatchQueue,
    handler: @escaping @Sendable (Value) -> Void,
    subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable
  ) {
    self.queue = queue
    mailbox = DeliveryMailbox(handler: handler)
    let feed = DeliveryFeed(self)
    upstream.fill(subscribe { feed($0) })
  }

  func enqueue(_ value: Value) {
    if mailbox.post(value) { queue.async { self.drain() } }
  }

  private func drain() {
    mailbox.drain { handler, value in handler(value) }
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
