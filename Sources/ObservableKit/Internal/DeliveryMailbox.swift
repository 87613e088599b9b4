/// The state machine every asynchronous delivery shares: values wait in order, one drain at
/// a time hands them to the handler, and closing drops what waits and the handler.
///
/// Invariant where the lock is dropped: a drain takes one value and the handler under the
/// lock, then calls the handler outside it. `isDraining` is set from the moment a drain is
/// decided (``post(_:)`` returned true) until ``next()`` finds nothing waiting, so at most
/// one drain calls the handler, and a value posted meanwhile waits behind the ones before
/// it. ``close()`` clears the handler under the same lock, so no value is taken after it
/// returns; a call whose value was taken just before may still run, as for a pass in
/// progress on another thread.
struct DeliveryMailbox<Value: Sendable, Handler: Sendable>: Sendable {
  private struct State: Sendable {
    /// Nil once closed.
    var handler: Handler?
    var buffer = DeliveryBuffer<Value>()
    var isDraining = false
  }

  private let state: Locked<State>

  init(handler: Handler) {
    state = Locked(State(handler: handler))
  }

  /// Queues `value`; returns true if the caller must start a drain (none runs).
  func post(_ value: Value) -> Bool {
    state.withLock { state in
      guard state.handler != nil else { return false }
      state.buffer.append(value)
      defer { state.isDraining = true }
      return !state.isDraining
    }
  }

  /// The next value with the handler to call; nil ends the drain.
  func next() -> (Handler, Value)? {
    state.withLock { state in
      guard let handler = state.handler, let value = state.buffer.popFirst() else {
        state.isDraining = false
        return nil
      }
      return (handler, value)
    }
  }

  /// The handler, while open.
  var handler: Handler? { state.withLock { $0.handler } }

  /// Ends delivery: drops the handler and what waits, released here, outside the lock.
  func close() {
    let released = state.withLock { state in
      defer {
        state.handler = nil
        state.buffer = DeliveryBuffer()
      }
      return (state.handler, state.buffer)
    }
    withExtendedLifetime(released) {}
  }

  var isClosed: Bool { state.withLock { $0.handler == nil } }
}
