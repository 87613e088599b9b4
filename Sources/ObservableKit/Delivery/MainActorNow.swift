import Dispatch
import ObservableKitShims

/// The path the asynchronous deliveries take on OS versions before the 26 releases, where
/// immediate tasks (SE-0472, `Task.immediate`) do not exist.
///
/// On those versions a main-actor handler still runs at once when the value comes where the
/// main actor runs: the main thread, or a block of the main queue (the main actor's executor
/// is the main queue, and code on the main thread or in a main-queue block never overlaps a
/// main-actor job). The runtime's own check (`MainActor.assumeIsolated`) is not asked: before
/// macOS 15 it only knows the main thread, and traps in a main-queue block that runs
/// elsewhere (after `dispatchMain()`, the main queue is drained by a worker thread).
@usableFromInline
enum MainActorNow {
  /// True in debug builds run with `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1`: every delivery
  /// then takes the path of Apple platforms before the 26 releases, on any OS. The
  /// environment is read once, at the first delivery that asks.
  #if DEBUG
  @usableFromInline static let simulatesOSBefore26 = okit_simulate_os_before_26_requested()
  #else
  @usableFromInline static var simulatesOSBefore26: Bool { false }
  #endif

  /// Marks the main queue, once, so that a block running on it (or on a queue that targets
  /// it) can tell, whatever its thread.
  @usableFromInline static let marksMainQueue: Bool = {
    okit_mark_main_queue()
    return true
  }()

  /// Whether the caller runs where main-actor code may run now, without a hop: on the main
  /// thread, or in a block of the main queue. Never traps; false means "not known to be",
  /// and the caller then enqueues.
  ///
  /// Asked in order of cost: the main thread (a thread-local load), then a block of the
  /// main queue (a call into libdispatch, see `okit_runs_on_main_queue`).
  @inlinable
  static var isCurrent: Bool {
    okit_is_main_thread_now() || (marksMainQueue && okit_runs_on_main_queue())
  }

  /// Starts the main-actor job that runs `drain`: from the 26 releases on, an immediate task
  /// isolated to the main actor (SE-0472), which runs at once where the runtime knows the
  /// caller runs there and is enqueued otherwise; before them (or with
  /// `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1` in a debug build), a main-queue block. `drain`
  /// checks that it runs on the main actor itself (a precondition, see `MainActorCalling`).
  /// Out of line: a caller's synchronous path then pays nothing for the task's or the
  /// block's set-up (a priority's metadata and stack space, measured on every call while
  /// this was inlined).
  @inlinable @inline(never)
  static func startJob(_ drain: @escaping @Sendable () -> Void) {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *), !simulatesOSBefore26 {
      Task.immediate { @MainActor in drain() }
    } else {
      DispatchQueue.main.async { drain() }
    }
  }
}
