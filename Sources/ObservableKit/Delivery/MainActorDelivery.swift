import Dispatch

/// One subscription whose handler runs on the main actor: synchronously when the value
/// arrives on the main actor and nothing of this subscription waits, otherwise enqueued to
/// the main actor, in order (see `DeliveryMailbox` for the invariant of the drain).
///
/// "On the main actor" is asked of the runtime, not guessed from the thread: a drain starts
/// as an immediate task isolated to the main actor (SE-0472), which runs before the
/// notification returns when the caller already runs there, and is enqueued otherwise.
/// Where immediate tasks are unavailable (Apple platforms before 26), the drain goes through
/// the main queue.
final class MainActorDelivery<Value: Sendable>: Disposable, FedDelivery {
  typealias Handler = @MainActor (Value) -> Void

  private let mailbox: DeliveryMailbox<Value, Handler>
  private let upstream = DisposableSlot()

  /// Subscribes `handler` through `subscribe`, to be called on the main actor.
  init(handler: @escaping Handler, subscribe: (@escaping @Sendable (Value) -> Void) -> any Disposable) {
    mailbox = DeliveryMailbox(handler: handler)
    let feed = DeliveryFeed(self)
    upstream.fill(subscribe { feed($0) })
  }

  func enqueue(_ value: Value) {
    guard mailbox.post(value) else { return }
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      Task.immediate { @MainActor in self.drain() }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { self.drain() } }
    }
  }

  @MainActor
  private func drain() {
    while let (handler, value) = mailbox.next() {
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
}
