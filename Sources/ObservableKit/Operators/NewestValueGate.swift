/// Serializes the calls of one subscriber fed by several sources (`combineLatest`), whose
/// values come from more than one property's turn.
///
/// A call for version `v` runs only if `v` is newer than every version this subscriber has
/// been called with. If the subscriber is being called on another thread at that moment,
/// the value is left in the gate instead, and that thread passes on the newest value left
/// there as soon as its call returns. So one subscriber's calls never overlap, never go back
/// in time, and end on the newest value, and no lock is held while the handler runs.
@usableFromInline
struct NewestValueGate<Value> {
  @usableFromInline
  struct State {
    @usableFromInline var lastVersion: UInt64 = 0
    @usableFromInline var isCalling = false
    @usableFromInline var pending: (version: UInt64, value: Value)?

    @inlinable init() {}
  }

  @usableFromInline
  enum Start {
    case call, skip
    case handedOff(replaced: (version: UInt64, value: Value)?)
  }

  @usableFromInline let state: Locked<State>

  @inlinable
  init() {
    state = Locked(State())
  }

  @inlinable
  func offer(_ value: Value, version: UInt64, to handler: (Value) -> Void) {
    let start = state.withLock { state -> Start in
      guard version > state.lastVersion, version > state.pending?.version ?? 0 else { return .skip }
      if state.isCalling {
        // The replaced value leaves the lock in the result, so its deinit runs outside.
        defer { state.pending = (version, value) }
        return .handedOff(replaced: state.pending)
      }
      state.isCalling = true
      state.lastVersion = version
      return .call
    }
    guard case .call = start else { return }
    var next: Value? = value
    while let current = next {
      handler(current)
      next = state.withLock { state in
        guard let pending = state.pending else {
          state.isCalling = false
          return nil
        }
        state.pending = nil
        state.lastVersion = pending.version
        return pending.value
      }
    }
  }
}

// Checked conformances: a gate of Sendable values may serve a @Sendable handler (the
// shared family's combineLatest).
extension NewestValueGate.State: Sendable where Value: Sendable {}
extension NewestValueGate: Sendable where Value: Sendable {}
