import ObservableKitShims

/// A named point in one of the engine's concurrent protocols, where the engine has let go of
/// its lock in the middle of an operation and will come back to state it took out.
///
/// Debug builds compile a check of a thread-local gate: on the threads of the test suite's
/// schedule explorer the gate parks the thread until the explorer's schedule lets it go on,
/// so that every interleaving of these points can be run in turn; on any other thread the
/// gate is nil and the point costs one thread-local load. Release builds compile nothing.
@inlinable @inline(__always)
package func schedulePoint(_ name: StaticString) {
  #if OBSERVABLEKIT_SCHEDULE_POINTS
  if let gate = okit_current_schedule_gate() {
    Unmanaged<ScheduleGate>.fromOpaque(gate).takeUnretainedValue().reach(name)
  }
  #endif
}

/// What a thread of the schedule explorer runs at each schedule point. The explorer makes
/// one per thread and installs it with ``install(_:)``.
@usableFromInline
package final class ScheduleGate: Sendable {
  private let onReach: @Sendable (StaticString) -> Void

  package init(_ onReach: @escaping @Sendable (StaticString) -> Void) {
    self.onReach = onReach
  }

  @usableFromInline
  package func reach(_ name: StaticString) {
    onReach(name)
  }

  /// Runs `body` with `gate` installed on this thread; the gate is retained meanwhile.
  package static func install<R>(_ gate: ScheduleGate, _ body: () throws -> R) rethrows -> R {
    try withExtendedLifetime(gate) {
      okit_set_schedule_gate(Unmanaged.passUnretained(gate).toOpaque())
      defer { okit_set_schedule_gate(nil) }
      return try body()
    }
  }
}
