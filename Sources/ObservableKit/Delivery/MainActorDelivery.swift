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
final class MainActorDelivery<Value: Sendable>: Disposable, FedDelivery, DrainCounting {
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
    if MainActorNow.isCurrent {
      // Where main-actor code may run now: call at once unless a drain runs (then the value
      // waits behind what waits, and that drain delivers it).
      guard let handler = mailbox.startDrain(with: value) else { return }
      MainActorNow.run {
        handler(value)
        self.drain()
      }
      return
    }
    guard mailbox.post(value) else { return }
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
      !MainActorNow.simulatesOSBefore26
    {
      Task.immediate { @MainActor in self.drain() }
    } else {
      DispatchQueue.main.async { MainActorNow.run { self.drain() } }
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

  package var drainsStarted: Int { mailbox.drainsStarted }
}
