import Testing
import TestSupport

@testable import ObservableKitTesting

/// Every interleaving of the window "a timer is cancelled while the clock waits for its
/// firing", in `ManualClock`'s timer: the clock has rung a deadline and waits for the
/// acknowledgement that its handlers ran, while another thread cancels the timer (a dispose,
/// or a handler of another subscription that ends this one). Checked after each schedule: the
/// acknowledgement came exactly once, and, when the task took the deadline, only after its
/// handlers had run; when the cancel came first, at once, and the task took nothing. See
/// `ScheduleExplorationTests` (ObservableKitTests) for the explorer.
@Suite("Schedule exploration: ManualClock's acknowledgement of a firing")
struct ScheduleExplorationClockTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class State {
    let clock = ManualClock()
    let timer: ManualClock.Timer
    let deadline = ManualClock.Instant(offset: .seconds(1))
    let handlerRan = Guarded(false)
    /// Per acknowledgement: whether the handlers had run then.
    let acknowledgements = Guarded<[Bool]>([])
    let took = Guarded<Bool?>(nil)

    init() {
      timer = clock.makeTimer() as! ManualClock.Timer
      timer.arm(at: deadline)
    }

    /// The clock's side of `advance`: the deadline rung, the acknowledgement awaited.
    func ring() {
      let (ran, acknowledgements) = (handlerRan, self.acknowledgements)
      clock.ring(timer.id, at: deadline) { acknowledgements.withLock { $0.append(ran.value) } }
    }

    /// The timer's task, as `TimerLoop.run` is: takes the deadline, runs the handlers, says so.
    func runTask() {
      guard case .some(let taken) = timer.take(orWait: nil) else {
        Issue.record("the task found no ring and would wait")
        return
      }
      took.value = taken != nil
      guard taken != nil else { return }
      handlerRan.value = true
      timer.didHandle()
    }
  }

  @Test(
    "A cancel from another thread while the task runs the firing's handlers (2 operations, every interleaving): acknowledged once, after the handlers")
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func cancelWhileTheHandlersRun() {
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.ring()
        // The task has taken the deadline: the firing is its.
        guard case .some(.some) = state.timer.take(orWait: nil) else { preconditionFailure("no ring") }
        return state
      },
      operations: [
        { state in
          state.handlerRan.value = true
          state.timer.didHandle()
        },
        { state in state.timer.cancel() },
      ],
      check: { state, trace in
        #expect(state.acknowledgements.value == [true], "\(trace)")
        #expect(state.clock.pendingCount == 0, "\(trace)")
        #expect(state.timer.take(orWait: nil) == .some(nil), "a cancelled timer gives no deadline: \(trace)")
      }
    )
    #expect(report.pointsSeen.contains("manualClock.cancel: the timer's state taken; resuming outside the lock"))
    #expect(report.pointsSeen.contains("manualClock.didHandle: the acknowledgement taken; resuming outside the lock"))
    #expect(report.schedules >= 3)
  }

  @Test(
    "A cancel from another thread while the rung deadline waits for the task (2 operations, every interleaving): acknowledged once, after the handlers if the task took it, at once if not")
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func cancelBeforeOrWhileTheTaskTakesTheRing() {
    var outcomes: Set<Bool> = []
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.ring()
        return state
      },
      operations: [
        { state in state.runTask() },
        { state in state.timer.cancel() },
      ],
      check: { state, trace in
        let took = state.took.value == true
        outcomes.insert(took)
        // Taken: acknowledged by didHandle(), after the handlers. Not taken: by the cancel,
        // with no handler run, so that the advance does not wait for nothing.
        #expect(state.acknowledgements.value == [took], "\(trace)")
        #expect(state.handlerRan.value == took, "\(trace)")
        #expect(state.clock.pendingCount == 0, "\(trace)")
      }
    )
    #expect(outcomes == [true, false], "both orders were run")
    #expect(report.pointsSeen.contains("manualClock.take: the deadline handed to the task; its handlers run next"))
    #expect(report.pointsSeen.contains("manualClock.cancel: the timer's state taken; resuming outside the lock"))
    #expect(report.schedules >= 3)
  }

  @Test("A timer released while its firing is held acknowledges it: nothing is left to say the handlers ran")
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func aReleasedTimerAcknowledges() {
    let clock = ManualClock()
    let acknowledged = Guarded(0)
    do {
      let timer = clock.makeTimer() as! ManualClock.Timer
      timer.arm(at: .init(offset: .seconds(1)))
      clock.ring(timer.id, at: .init(offset: .seconds(1))) { acknowledged.withLock { $0 += 1 } }
      guard case .some(.some) = timer.take(orWait: nil) else { preconditionFailure("no ring") }
      withExtendedLifetime(timer) {
        timer.cancel()
        #expect(acknowledged.value == 0, "a cancel during the firing leaves the acknowledgement to didHandle()")
      }
    }
    #expect(acknowledged.value == 1)
  }
}
