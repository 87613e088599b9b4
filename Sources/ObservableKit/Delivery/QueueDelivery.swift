import Dispatch

/// One subscription delivered on a dispatch queue: values wait in a FIFO buffer and one
/// drain at a time runs on the queue, so calls keep their order even on a concurrent queue.
///
/// Dispatch is imported here only, because queue delivery is what this file is for.
final class QueueDelivery<Value>: Disposable {
  private struct State {
    var buffer: ContiguousArray<Value> = []
    var isDraining = false
    var isDisposed = false
  }

  private let queue: DispatchQueue
  private let handler: @Sendable (Value) -> Void
  private let state = Locked(State())
  private let upstream = DisposableSlot()

  init(queue: DispatchQueue, handler: @escaping @Sendable (Value) -> Void) {
    self.queue = queue
    self.handler = handler
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

  private func enqueue(_ value: Value) {
    let startDrain = state.withLock { state -> Bool in
      guard !state.isDisposed else { return false }
      state.buffer.append(value)
      defer { state.isDraining = true }
      return !state.isDraining
    }
    if startDrain { queue.async { self.drain() } }
  }

  /// Calls the handler for each buffered value, in order, checking before each call that the
  /// subscription is still live.
  private func drain() {
    while let value = state.withLock({ state -> Value? in
      guard !state.isDisposed, !state.buffer.isEmpty else {
        state.isDraining = false
        return nil
      }
      return state.buffer.removeFirst()
    }) {
      handler(value)
    }
  }

  func dispose() {
    upstream.dispose()
    let dropped = state.withLock { state in
      state.isDisposed = true
      defer { state.buffer = [] }
      return state.buffer
    }
    withExtendedLifetime(dropped) {}
  }

  var isDisposed: Bool { state.withLock { $0.isDisposed } }
}
