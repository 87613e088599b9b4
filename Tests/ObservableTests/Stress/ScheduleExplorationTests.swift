import Observable
import Testing
import TestSupport

/// Every interleaving of the observer list's pruning of a dead observer, as the
/// compatibility classes use it, with the operations that can race it (see the invariants
/// at the top of ObservableKit's WeakObserverTable.swift).
@Suite("Schedule exploration: compatibility observer list")
struct RegistryScheduleExplorationTests {
  struct State {
    let observable: any Observable
    let survivor = Counter()
    let newcomer = Counter()
  }

  /// Every class of the module holds the same kind of list, so one family explores it.
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
        #expect(census(state.observable) == .init(observers: 2, keys: 0, subscriptions: 2), "\(trace)")
        var reached = 0
        state.observable.withObservers { (_: Ping) in reached += 1 }
        #expect(reached == 2, "the survivor and the newcomer stay registered: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: observer list \(family)")
    #expect(report.pointsSeen.contains("observer list: visit pruning a dead observer"))
  }

  struct KeyedState {
    let observable: any KeyedObservable<String>
    let survivor = Counter()
  }

  /// A keyed pass prunes a dead observer from every key; the plain pass and a removal of
  /// another key race it.
  @Test("A keyed pass pruning a dead observer races a plain pass and a keyed removal (every interleaving)")
  func keyedPruneAgainstPassAndRemoval() {
    let family = KeyedFamily.threadSafe
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = KeyedState(observable: family.make())
        do {
          let transient = Counter()
          state.observable.addKeyedObserver(keys: ["A", "B"], transient)
        }
        state.observable.addKeyedObserver(keys: ["A", "B"], state.survivor)
        return state
      },
      operations: [
        { state in state.observable.withKeyedObservers(key: "A") { (_, observer: Ping) in observer.ping("") } },
        { state in state.observable.withObservers { (observer: Ping) in observer.ping("") } },
        { state in state.observable.removeKeyedObserver(key: "B", state.survivor) },
      ],
      check: { state, trace in
        #expect(state.survivor.count == 2, "the keyed pass and the plain pass reach the survivor: \(trace)")
        #expect(census(state.observable) == .init(observers: 1, keys: 1, subscriptions: 2), "\(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: keyed observer list \(family)")
    #expect(report.pointsSeen.contains("observer list: visit pruning a dead observer"))
  }
}
