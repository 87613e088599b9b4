import Dispatch
import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// The windows of a main-actor subscription kept in the event's own storage
/// (`MainActorSubscription`): a call on the main actor made without a lock, the mailbox that the
/// first value that must wait makes (replacing the storage's handler), `dispose()`, and the
/// event's release while values wait.
///
/// The main actor's part runs in a `DispatchQueue.main.sync` block, which `MainActorNow`
/// counts as the main actor wherever it runs. The explorer drives only its own threads, so
/// these tests run where worker threads drain the main queue (an async `main` on Linux, this
/// suite's runner there) and `main.sync` runs the block on the calling thread; where the main
/// thread serves the main queue (a run loop on Apple platforms) they return early, and the
/// windows are left to the parked-thread tests named in Thread Safety.
@Suite("Schedule exploration: a main-actor subscription kept in the event's storage")
struct ScheduleExplorationEntryTests {
  typealias Log = ScheduleExplorationTests.Log

  /// Whether the main queue runs a `sync` block on the caller. Asked from the test's own
  /// thread, which is never the main thread, so the question cannot deadlock.
  static var mainQueueRunsOnTheCaller: Bool { DispatchQueue.main.sync { !Thread.isMainThread } }

  /// Registers `body` as `SharedEvent.observe { }` does for a main-actor handler.
  static func observeOnMainActor(_ event: SharedEvent<Int>, _ body: @escaping (Int) -> Void) -> any Disposable {
    MainActorSubscription<Int, Void>.observe(MainActorCall(body: body), on: event.event.storage)
  }

  /// Lets every main-actor job started so far run: main-actor jobs go through the main queue.
  static func settleMainActor() {
    for _ in 0..<3 { DispatchQueue.main.sync {} }
  }

  @Test("A main-actor call, a value from another thread that makes the mailbox, and dispose(): every interleaving delivers each value at most once, in order per thread, none after dispose() returned, and releases the handler")
  func callRacesMailboxAndDispose() {
    guard Self.mainQueueRunsOnTheCaller else { return }
    struct State {
      let event = SharedEvent<Int>()
      let log = Log()
      let tracker = LifetimeTracker()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let tracked = state.tracker.make()
        state.token.value = Self.observeOnMainActor(state.event) { [log = state.log] value in
          tracked.touch()
          log.append("call \(value)")
        }
        return state
      },
      operations: [
        { state in
          DispatchQueue.main.sync {
            state.log.append("sending 1")
            state.event.notifyObservers(1)
            state.log.append("sending 3")
            state.event.notifyObservers(3)
          }
        },
        { state in
          state.log.append("sending 2")
          state.event.notifyObservers(2)
        },
        { state in
          state.token.value?.dispose()
          state.log.append("disposed")
        },
      ],
      check: { state, trace in
        Self.settleMainActor()
        let lines = state.log.all
        let afterDispose = lines.drop { $0 != "disposed" }.dropFirst()
        #expect(afterDispose.filter { $0.hasPrefix("call") }.count <= 1, "values taken after dispose returned: \(trace)")
        for value in [1, 2, 3] {
          if state.log.has("sending \(value)", after: "disposed") {
            #expect(!lines.contains("call \(value)"), "a value notified after dispose returned was delivered: \(trace)")
          }
          #expect(lines.filter { $0 == "call \(value)" }.count <= 1, "a value delivered twice: \(trace)")
        }
        let mainThreadCalls = lines.filter { ["call 1", "call 3"].contains($0) }
        #expect(mainThreadCalls != ["call 3", "call 1"], "the main thread's values out of order: \(trace)")
        #expect(state.token.value?.isDisposed == true)
        #expect(state.tracker.liveCount == 0, "the handler outlived dispose(): \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("mainActorEntry.call: no mailbox; calling without the lock"))
    #expect(report.pointsSeen.contains("mainActor.call: nothing waits; calling without the lock"))
    #expect(report.pointsSeen.contains("mainActorEntry.call: the epoch moved during the call; looking for a mailbox"))
  }

  @Test("Values from two threads, one on the main actor: every interleaving delivers every value once, in order per thread, the ones that came during a call right after it")
  func everyValueOnceWithoutDispose() {
    guard Self.mainQueueRunsOnTheCaller else { return }
    struct State {
      let event = SharedEvent<Int>()
      let log = Log()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = Self.observeOnMainActor(state.event) { [log = state.log] value in
          log.append("call \(value)")
        }
        return state
      },
      operations: [
        { state in
          DispatchQueue.main.sync {
            state.event.notifyObservers(1)
            state.event.notifyObservers(3)
          }
        },
        { state in
          state.event.notifyObservers(2)
          state.event.notifyObservers(4)
        },
      ],
      check: { state, trace in
        Self.settleMainActor()
        let calls = state.log.all
        #expect(calls.sorted() == ["call 1", "call 2", "call 3", "call 4"], "a value lost or repeated: \(trace)")
        let main = calls.filter { $0 == "call 1" || $0 == "call 3" }
        let other = calls.filter { $0 == "call 2" || $0 == "call 4" }
        #expect(main == ["call 1", "call 3"] && other == ["call 2", "call 4"], "out of order per thread: \(trace)")
        state.token.value?.dispose()
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("pass: a subscription ended; taking a fresh snapshot"))
  }

  @Test("The event released while a value waits: every interleaving delivers what was taken in, then releases the handler")
  func releaseWhileValuesWait() {
    guard Self.mainQueueRunsOnTheCaller else { return }
    struct State {
      let event = Guarded<SharedEvent<Int>?>(SharedEvent())
      let log = Log()
      let tracker = LifetimeTracker()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let tracked = state.tracker.make()
        state.token.value = Self.observeOnMainActor(state.event.value!) { [log = state.log] value in
          tracked.touch()
          log.append("call \(value)")
        }
        return state
      },
      operations: [
        { state in
          guard let event = state.event.value else { return }
          event.notifyObservers(1)
          state.log.append("sent 1")
        },
        { state in
          // Taken out under the guard's lock and released outside it: the event's deinit
          // reaches schedule points.
          var event = state.event.withLock { event in defer { event = nil }; return event }
          event = nil
          _ = event
          state.log.append("released")
        },
      ],
      check: { state, trace in
        Self.settleMainActor()
        let lines = state.log.all
        if lines.contains("sent 1") {
          #expect(lines.contains("call 1"), "a value taken in before the release was lost: \(trace)")
        }
        #expect(state.token.value?.isDisposed == true, "the released event left its subscription open: \(trace)")
        #expect(state.tracker.liveCount == 0, "the handler outlived the event: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.schedules > 1)
  }
}
