import Dispatch

/// One subscription whose handler runs on the main actor: synchronously when the value
/// arrives on the main actor and nothing of this subscription waits, otherwise enqueued to
/// the main actor, in order.
///
/// "On the main actor" is asked of the runtime, not guessed from the thread: a drain starts
/// as an immediate task isolated to the main actor (SE-0472), which runs before `enqueue`
/// returns when the caller already runs there, and is enqueued otherwise. Where immediate
/// tasks are unavailable (Apple platforms before 26), the drain goes through the main queue.
///
/// Invariant where the lock is dropped: `isDraining` is set from the moment a drain is
/// decided until the buffer is found empty under the lock, so one drain at a time calls the
/// handler, and a value that arrives meanwhile waits in the buffer behind the ones before it.
/// `dispose()` clears the handler under the same lock, so no value is taken after it returns;
/// a call whose value was taken just before may still run, as for a pass in progress.
final class MainActorDelivery<Value: Sendable>: Disposable {
  typealias Handler = @MainActor (Value) -> Void

  private struct State: Sendable {
    /// Nil once disposed: disposing releases the handler at once.
    var handler: Handler?
    var buffer = DeliveryBuffer<Value>()
    var isDraining = false
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

  /// Delivers `value`: at once on the main actor if nothing waits, else after what waits.
  func enqueue(_ value: Value) {
    let startsDrain = state.withLock { state -> Bool in
      guard state.handler != nil else { return false }
      state.buffer.append(value)
      defer { state.isDraining = true }
      return !state.isDraining
    }
    guard startsDrain else { return }
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      Task.immediate { @MainActor in self.drain() }
    } else {
      DispatchQueue.main.async { MainActor.assumeIsolated { self.drain() } }
    }
  }

  /// Calls the handler for each waiting value, in order.
  @MainActor
  private func drain() {
    while let (handler, value) = state.withLock({ state -> (Handler, Value)? in
      guard let handler = state.handler, let value = state.buffer.popFirst() else {
        state.isDraining = false
        return nil
      }
      return (handler, value)
    }) {
      handler(value)
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
