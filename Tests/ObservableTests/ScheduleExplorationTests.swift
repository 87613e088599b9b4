import Observable
import Testing
import TestSupport

/// Every interleaving of the compatibility registry's pruning of a dead observer with the
/// operations that can race it (see ObservableKit's audit table in Thread Safety).
@Suite("Schedule exploration: compatibility registry")
struct RegistryScheduleExplorationTests {
  struct State {
    let observable: any Observable
    let survivor = Counter()
    let newcomer = Counter()
  }

  /// Every class of the module holds the same registry, so one family explores it.
  @Test("A pass pruning a dead observer races an add and a second pass (3 operations, every interleaving)")
  func pruneAgainstAddAndPass() {
    let family = Family.threadSafe
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State(observable: family.make())
        do {
          let transient = Counter()
          state.observable.addObserver(transient)
        }
        state.observable.addObserver(state.survivor)
        return state
      },
      operations: [
        { state in state.observable.withObservers { (observer: Ping) in observer.ping("") } },
        { state in state.observable.addObserver(state.newcomer) },
        { state in state.observable.withObservers { (observer: Ping) in observer.ping("") } },
      ],
      check: { state, trace in
        #expect(state.survivor.count == 2, "each pass reaches the survivor once: \(trace)")
        #expect(state.newcomer.count <= 2)
        #expect(census(state.observable) == .init(observers: 2, keys: 0, registrations: 2), "\(trace)")
        var reached = 0
        state.observable.withObservers { (_: Ping) in reached += 1 }
        #expect(reached == 2, "the survivor and the newcomer stay registered: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: registry \(family)")
    #expect(report.pointsSeen.contains("registry: pruning a dead observer"))
  }
}
