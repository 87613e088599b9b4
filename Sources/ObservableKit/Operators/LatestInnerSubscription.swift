/// The subscription behind `flatMapLatest` in both families: the subscription to the outer
/// source, the one to the inner source of the current outer value, and the order of the
/// calls to the subscriber.
///
/// Invariants (the lock is `state`'s):
/// - Each switch takes a new generation under the lock and takes the old inner subscription
///   out; it disposes that one after the lock and only then subscribes to the new inner, so
///   the old inner is unsubscribed before any value of the new one.
/// - A value is called only while its generation is current: checked under the lock when it
///   arrives, and again when it is taken from the queue. Calls to the subscriber never
///   overlap: a value that arrives while a call runs (from another thread, or from the call
///   itself) is queued, and the calling thread delivers it after, in order. So once a switch
///   has taken the lock, no value of the old inner is called, except the one whose call had
///   already begun.
/// - A new inner subscription that is no longer current when it is stored (a later switch
///   or the end came first) is disposed at once.
final class LatestInnerSubscription<Value>: Disposable {
  fileprivate struct State {
    var generation: UInt64 = 0
    var inner: (any Disposable)?
    var isEnded = false
    var isCalling = false
    var queue: ContiguousArray<(generation: UInt64, value: Value)> = []
  }

  private let state = Locked(State())
  /// The subscription to the outer source.
  let outer = DisposableSlot()

  /// Ends the old inner subscription and returns the generation of the new one, or nil once
  /// ended. Values of the old inner still queued are dropped.
  func beginSwitch() -> UInt64? {
    let (generation, old, dropped) = state.withLock {
      state -> (UInt64?, (any Disposable)?, ContiguousArray<(generation: UInt64, value: Value)>) in
      if state.isEnded { return (nil, nil, []) }
      state.generation += 1
      defer {
        state.inner = nil
        state.queue = []
      }
      return (state.generation, state.inner, state.queue)
    }
    withExtendedLifetime(dropped) {}
    old?.dispose()
    schedulePoint("flatMapLatest: the old inner disposed; subscribing to the new one")
    return generation
  }

  /// Stores the subscription to the inner of `generation`, or disposes it if a later switch
  /// or the end came meanwhile.
  func finishSwitch(_ token: any Disposable, generation: UInt64) {
    let isStale = state.withLock { state in
      guard state.generation == generation, !state.isEnded else { return true }
      state.inner = token
      return false
    }
    if isStale { token.dispose() }
  }

  /// Calls `handler` with `value` of the inner of `generation` if it is still current, after
  /// the calls already under way.
  func deliver(_ value: Value, generation: UInt64, to handler: (Value) -> Void) {
    // The inner source's pass checked its subscription before this call: a switch may come
    // between that check and the lock below.
    schedulePoint("flatMapLatest: an inner value arrives; checking its generation")
    let call = state.withLock { state -> Bool in
      guard state.generation == generation, !state.isEnded else { return false }
      if state.isCalling {
        state.queue.append((generation, value))
        return false
      }
      state.isCalling = true
      return true
    }
    guard call else { return }
    var next: Value? = value
    while let current = next {
      handler(current)
      schedulePoint("flatMapLatest: a value called; taking the next under the lock")
      let (taken, dropped) = state.withLock { state -> (Value?, ContiguousArray<(generation: UInt64, value: Value)>) in
        var dropped: ContiguousArray<(generation: UInt64, value: Value)> = []
        while !state.queue.isEmpty {
          let first = state.queue.removeFirst()
          if first.generation == state.generation, !state.isEnded { return (first.value, dropped) }
          dropped.append(first)
        }
        state.isCalling = false
        return (nil, dropped)
      }
      withExtendedLifetime(dropped) {}
      next = taken
    }
  }

  /// Ends the subscription: the outer one, then the current inner one.
  func dispose() {
    let (inner, dropped) = state.withLock {
      state -> ((any Disposable)?, ContiguousArray<(generation: UInt64, value: Value)>) in
      state.isEnded = true
      state.generation += 1
      defer {
        state.inner = nil
        state.queue = []
      }
      return (state.inner, state.queue)
    }
    withExtendedLifetime(dropped) {}
    outer.dispose()
    inner?.dispose()
  }

  var isDisposed: Bool { state.withLock { $0.isEnded } }
}

// Checked: the stored properties are a `Locked` box, whose mutex guards the state (values
// and disposables, which are Sendable, no closures), and a `DisposableSlot`. The shared
// family hands it to @Sendable handlers.
extension LatestInnerSubscription: Sendable where Value: Sendable {}
extension LatestInnerSubscription.State: Sendable where Value: Sendable {}
