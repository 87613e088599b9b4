import Dispatch

/// One subscription delivered on a dispatch queue: values wait in a FIFO buffer and one
/// drain at a time runs on the queue, so calls keep their order even on a concurrent queue.
///
/// Dispatch is imported here only, because queue delivery is what this file is for.
///
/// Invariant where the lock is dropped: a drain takes one value and the handler under the
/// lock, then calls it outside. `isDraining` stays set for the whole drain, so no second
/// drain starts and values keep their order; `dispose()` clears the handler under the same
/// lock, so no value is taken after it returns; a call whose value was taken just before
/// may still run, as for a pass in progress.
final class QueueDelivery<Value: Sendable>: Disposable {
  private struct State: Sendable {
    /// Nil once disposed: disposing releases the handler at once.
    var handler: (@Sendable (Value) -> Void)?
    var buffer = DeliveryBuffer<Value>()
    var isDraining = false
  }

  private let queue: DispatchQueue
  private let state: Locked<State>
  private let upstream = DisposableSlot()

  init(queue: DispatchQueue, handler: @escaping @Sendable (Value) -> Void) {
    self.queue = queue
    state = Locked(State(handler: handler))
  }

  /// Subscribes to `source` and returns the subscription.
  static func observe<Source: EventSource>(
    _ source: Source,
    on queue: DispatchQueue,
    _ handler: @escaping @Sendable (Value) -> Void
  ) -> any Disposable where Source.Value == Value {
    let delivery = QueueDelivery(queue: queue, handler: handler)
    delivery.upstream.fill(source.observe { delivery.enqueue($0) })
    return delivery
  }

  /// Hands `value` to the queue; called by the upstream subscription.
  func enqueue(_ value: Value) {
    let startDrain = state.withLock { state -> Bool in
      guard state.handler != nil else { return false }
      state.buffer.append(value)
      defer { state.isDraining = true }
      return !state.isDraining
    }
    if startDrain { queue.async { self.drain() } }
  }

  /// Calls the handler for each buffered value, in order, checking before each call that the
  /// subscription is still live.
  private func drain() {
    while let (handler, value) = state.withLock({ state -> ((@Sendable (Value) -> Void), Value)? in
      guard let handler = state.handler, let value = state.buffer.popFirst() else {
        state.isDraining = false
        return nil
      }
      return (handler, value)
    }) {
      handler(value)
    }
  }

  /// Connects the delivery to the subscription that feeds it.
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  func dispose() {
    upstream.dispose()
    // The handler and the dropped values leave the lock, so their deinits run outside.
    let released = state.withLock { state in
      defer {
        state.handler = nil
        state.buffer = DeliveryBuffer()
      }
      return (state.handler, state.buffer)
    }
    withExtendedLifetime(released) {}
  }

  var isDisposed: Bool { state.withLock { $0.handler == nil } }
}
