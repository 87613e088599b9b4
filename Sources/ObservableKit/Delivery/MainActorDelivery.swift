import Dispatch
import ObservableKitShims

/// One subscription whose handler runs on the main actor: synchronously when the value
/// arrives on the main thread and nothing of this subscription waits, otherwise through the
/// main queue, in order.
///
/// Invariant where the lock is dropped: `isDraining` is set from the moment a call or a
/// drain is decided until the buffer is found empty under the lock, so at most one caller
/// (a synchronous call followed by its drain, or a drain on the main queue) calls the handler
/// at a time, and a value that arrives meanwhile waits in the buffer behind the ones before
/// it. `dispose()` clears the handler under the same lock, so no call starts after it returns.
final class MainActorDelivery<Value: Sendable>: Disposable {
  typealias Handler = @MainActor (Value) -> Void

  private struct State: Sendable {
    /// Nil once disposed: disposing releases the handler at once.
    var handler: Handler?
    var buffer = DeliveryBuffer<Value>()
    var isDraining = false
  }

  private enum Start {
    case none
    case callNow(Handler)
    case scheduleDrain
  }

  private let state: Locked<State>
  private let upstream = DisposableSlot()

  init(handler: @escaping Handler) {
    state = Locked(State(handler: handler))
  }

  /// Connects the delivery to the subscription that feeds it.
  func attach(_ token: any Disposable) {
    upstream.fill(token)
  }

  /// Delivers `value`: at once on the main thread if nothing waits, else after what waits.
  func enqueue(_ value: Value) {
    let onMainThread = okit_is_main_thread()
    let start = state.withLock { state -> Start in
      guard let handler = state.handler else { return .none }
      if state.isDraining {
        state.buffer.append(value)
        return .none
      }
      state.isDraining = true
      // Not draining means the buffer is empty: nothing of this subscription waits.
      if onMainThread { return .callNow(handler) }
      state.buffer.append(value)
      return .scheduleDrain
    }
    switch start {
    case .none:
      break
    case .callNow(let handler):
      MainActor.assumeIsolated { handler(value) }
      drain()
    case .scheduleDrain:
      DispatchQueue.main.async { self.drain() }
    }
  }

  /// Calls the handler for each waiting value, in order; runs on the main thread.
  private func drain() {
    while let (handler, value) = state.withLock({ state -> (Handler, Value)? in
      guard let handler = state.handler, let value = state.buffer.popFirst() else {
        state.isDraining = false
        return nil
      }
      return (handler, value)
    }) {
      MainActor.assumeIsolated { handler(value) }
    }
  }

  func dispose() {
    upstream.dispose()
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
