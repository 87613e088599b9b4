import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Every interleaving of the lock windows of replay, events from async sequences and
/// flatMapLatest, with the contract checked after each schedule. See
/// `ScheduleExplorationTests` for the explorer.
@Suite("Schedule exploration: replay, async sources, flatMapLatest")
struct ScheduleExplorationStreamsTests {
  typealias Log = ScheduleExplorationTests.Log

  @Test("Replay while values are notified: a subscription with replay: 2 racing two notifications from two threads (3 operations, every interleaving); no gap, no duplicate, the replay first")
  func replayWhileNotified() {
    struct State {
      let event = SharedEvent<Int>(replay: 2)
      let log = Log()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.event.notifyObservers(1)
        state.event.notifyObservers(2)
        return state
      },
      operations: [
        { state in
          let log = state.log
          state.token.value = state.event.observeNonisolated { @Sendable (value: Int) in log.append("\(value)") }
        },
        { state in state.event.notifyObservers(3) },
        { state in state.event.notifyObservers(4) },
      ],
      check: { state, trace in
        let values = state.log.all.compactMap { Int($0) }
        #expect(Set(values).count == values.count, "a duplicate: \(values) \(trace)")
        #expect(values.contains(3) && values.contains(4), "a live value lost: \(values) \(trace)")
        let replayed = values.filter { $0 < 3 }
        #expect(replayed == replayed.sorted() && values.prefix(replayed.count).elementsEqual(replayed),
                "a replayed value after a live one: \(values) \(trace)")
        #expect(values.count <= 4)
        // The replay plus the live values: the last two notified before the subscription.
        #expect(values.count >= 3 || values == [3, 4] || values == [4, 3], "a gap: \(values) \(trace)")
        state.token.value?.dispose()
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("replay: a batch replayed; taking the live values held meanwhile"))
  }

  /// A sequence that never yields until its feed finishes it.
  struct State {
    let feed = Feed()
    let event: SharedEvent<Int>
    let log = Log()
    let token = Guarded<(any Disposable)?>(nil)
    let late = Guarded<(any Disposable)?>(nil)

    init() {
      event = SharedEvent(feed.sequence)
    }
  }

  @Test("A sequence ending while the last observer disposes and another registers (3 operations, every interleaving); ended or stopped, never both, and nothing registered survives the end")
  func endWhileLastObserverDisposes() {
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let log = state.log
        state.event.onFinish { @Sendable _ in log.append("end") }
        state.token.value = state.event.observeNonisolated { @Sendable (_: Int) in }
        return state
      },
      operations: [
        // The end of iteration 1 as its task reports it (the sequence returned nil).
        { (state: State) in state.event.iteration!.iterationEnded(1, failure: nil) },
        { (state: State) in state.token.value!.dispose() },
        { (state: State) in
          let log = state.log
          state.late.value = state.event.observeNonisolated { @Sendable (value: Int) in log.append("late \(value)") }
        },
      ],
      check: { state, trace in
        if state.event.isFinished {
          #expect(state.event.observerCount == 0, "a subscription survived the end: \(trace)")
          #expect(state.late.value?.isDisposed == true, "the late subscription is not ended: \(trace)")
        } else {
          // The stop won: the end of a stopped iteration is not the sequence's end, and the
          // late observer, the only one left, restarted it.
          #expect(state.event.observerCount == 1, "\(trace)")
          #expect(state.late.value?.isDisposed == false, "\(trace)")
        }
        state.late.value?.dispose()
        state.feed.finish()
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("source: the end recorded; ending the subscriptions outside the lock"))
    #expect(report.pointsSeen.contains("source: registered; counting the observer"))
  }

  @Test("flatMapLatest switching while the old inner property is set from another thread (shared; 2 operations, every interleaving); no value of the old inner after the new one")
  func switchWhileOldInnerSet() {
    struct State {
      let paris = SharedProperty(10)
      let rome = SharedProperty(20)
      let selected = SharedProperty(false)
      let log = Log()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let (paris, rome) = (state.paris, state.rome)
        state.token.value = state.selected.flatMapLatest { $0 ? rome : paris }
          .observeNonisolated { @Sendable [log = state.log] (value: Int) in log.append("\(value)") }
        return state
      },
      operations: [
        { state in state.selected.value = true },
        { state in state.paris.value = 11 },
      ],
      check: { state, trace in
        let values = state.log.all.compactMap { Int($0) }
        #expect(values.first == 10 && values.last == 20, "\(values) \(trace)")
        let afterSwitch = values.drop { $0 != 20 }
        #expect(!afterSwitch.contains(11), "a value of the old inner after the switch: \(values) \(trace)")
        #expect(state.paris.observerCount == 0, "\(trace)")
        state.token.value?.dispose()
        #expect(state.selected.observerCount == 0 && state.rome.observerCount == 0)
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("flatMapLatest: the old inner disposed; subscribing to the new one"))
  }
}
