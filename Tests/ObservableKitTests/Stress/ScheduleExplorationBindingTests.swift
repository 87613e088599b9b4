import Foundation
import Testing
import TestSupport

@testable import ObservableKit

// The windows where a binding or a persisted property lets go of its lock mid-operation,
// explored under every interleaving of their schedule points (see `ScheduleExplorer`).
@Suite("Schedule exploration: bindings and persisted properties")
struct ScheduleExplorationBindingTests {
  final class Bound {
    let a = SharedProperty(0)
    let b = SharedProperty(0)
    let logA = ValueLog<Int>()
    let logB = ValueLog<Int>()
    var tokens: [any Disposable] = []
    var binding: (any Disposable)!
    let valueAtDispose = Guarded<Int?>(nil)
    init() {
      binding = a.bind(to: b, map: { $0 * 10 }, reverse: { $0 / 10 })
      tokens = [a.observeChangesNonisolated(logA.handler), b.observeChangesNonisolated(logB.handler)]
    }
  }

  @Test("A bind propagating while the other side is set from another thread: equal, no duplicate, in order")
  func bindPropagatingWhileOtherSideSet() {
    let report = ScheduleExplorer.explore(
      setUp: { Bound() },
      operations: [
        { state in state.a.value = 1 },
        { state in state.b.value = 20 },
      ],
      check: { state, trace in
        #expect(state.a.value * 10 == state.b.value, "sides differ: \(trace)")
        for log in [state.logA.values, state.logB.values] {
          #expect(Set(log).count == log.count, "a value delivered twice: \(log) \(trace)")
        }
        #expect(state.logA.values.last == state.a.value, "a's observer did not end on its value: \(trace)")
        #expect(state.logB.values.last == state.b.value, "b's observer did not end on its value: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("binding: setting the other side"))
  }

  @Test("A bind starting while its target is set from another thread: equal at the end")
  func bindStartRacingSet() {
    final class State {
      let a = SharedProperty(1), b = SharedProperty(0)
      var binding: (any Disposable)?
    }
    let report = ScheduleExplorer.explore(
      setUp: { State() },
      operations: [
        { state in state.binding = state.a.bind(to: state.b) },
        { state in state.b.value = 7 },
      ],
      check: { state, trace in
        #expect(state.a.value == state.b.value, "sides differ: \(trace)")
      }
    )
    #expect(report.pointsSeen.contains("binding: registered, propagating the start"))
  }

  @Test("Disposing a binding while it propagates: no set of the binding lands after dispose() returns")
  func disposeRacingPropagation() {
    let report = ScheduleExplorer.explore(
      setUp: { Bound() },
      operations: [
        { state in state.a.value = 1 },
        { state in
          state.binding.dispose()
          state.valueAtDispose.value = state.b.value
        },
      ],
      check: { state, trace in
        #expect(state.b.value == state.valueAtDispose.value, "a set landed after dispose() returned: \(trace)")
      }
    )
    #expect(report.pointsSeen.contains("binding: setting the other side"))
  }

  // The store is a box of this test's own, not UserDefaults: corelibs posts
  // UserDefaults.didChangeNotification from other tests' suites (their persistent-domain
  // removals), and a persisted property reloads on it from that thread, which would run
  // the explored schedule points outside the explorer. What is explored is the property's
  // persistence, the same for every store.
  @Test("A persisted set racing a direct write and a reload: the property ends equal to the store")
  func persistedSetRacingReload() {
    final class Box: PropertyStorage, @unchecked Sendable {
      // `stored` is Guarded; `location` is immutable and unique to this box.
      let stored = Guarded<Int?>(nil)
      let location = "exploration box \(UInt64.random(in: 0...UInt64.max))"
      func load() -> StoredValue<Int> { stored.value.map { .value($0) } ?? .absent }
      func save(_ value: Int) throws { stored.value = value }
    }
    final class State {
      let store = Box()
      let property: SharedProperty<Int>
      init() { property = SharedProperty(0, storage: store) }
    }
    let report = ScheduleExplorer.explore(
      setUp: { State() },
      operations: [
        { state in state.property.value = 1 },
        { state in
          state.store.stored.value = 2
          state.property.reloadFromStorage()
        },
      ],
      check: { state, trace in
        let stored = state.store.stored.value ?? 0
        #expect(state.property.value == stored, "property \(state.property.value), store \(stored): \(trace)")
      }
    )
    #expect(report.pointsSeen.contains("persistence: saving a set"))
    #expect(report.pointsSeen.contains("persistence: a reload commits"))
  }
}
