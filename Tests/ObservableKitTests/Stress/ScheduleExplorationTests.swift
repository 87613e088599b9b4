import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Every interleaving of the schedule points of each of the engine's concurrent protocols,
/// two or three operations at a time, with the contract checked after each schedule. The
/// bound of each exploration is in its test's name and in Thread Safety's audit table.
@Suite("Schedule exploration")
struct ScheduleExplorationTests {
  /// A log that the operations of one schedule append to, in the order things happened.
  final class Log: @unchecked Sendable {
    // `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
      lock.lock()
      lines.append(line)
      lock.unlock()
    }

    var all: [String] {
      lock.lock()
      defer { lock.unlock() }
      return lines
    }

    /// Whether `later` appears after `earlier`.
    func has(_ later: String, after earlier: String) -> Bool {
      let lines = all
      guard let first = lines.firstIndex(of: earlier) else { return false }
      return lines[first...].contains(later)
    }
  }

  @Test("Bag: a dispose() racing a prune (2 operations, every interleaving) disposes every entry before it returns")
  func bagPruneAgainstDispose() {
    struct State {
      let bag = DisposeBag()
      let entries = (0..<DisposeBag.minimumPruneThreshold).map { _ in CountingDisposable() }
      let initialDisposedAtReturn = Guarded(false)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        // One entry short of the prune size, 10 of them disposed elsewhere, so that the
        // prune drops some.
        for entry in state.entries.dropLast() { state.bag.addDisposable(entry) }
        for entry in state.entries.prefix(10) { entry.markDisposedElsewhere() }
        return state
      },
      operations: [
        { state in state.bag.addDisposable(state.entries.last!) },  // the last: prunes
        { state in
          state.bag.dispose()
          state.initialDisposedAtReturn.value = state.entries.dropLast().allSatisfy(\.isDisposed)
        },
      ],
      check: { state, trace in
        #expect(state.initialDisposedAtReturn.value, "after dispose() returned, an entry was live: \(trace)")
        #expect(state.entries.dropFirst(10).allSatisfy { $0.disposals == 1 }, "each live entry disposed once: \(trace)")
        #expect(state.entries.prefix(10).allSatisfy { $0.disposals <= 1 }, "never twice: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("bag.prune: coming back to the lock"))
    #expect(report.schedules >= 3)
  }

  @Test("Storage: a pass racing disposals that compact the entries (2 operations, every interleaving)")
  func passAgainstCompaction() {
    struct State {
      let event = ObservableEvent<Int>()
      let log = Log()
      var tokens: [any Disposable] = []
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        var state = State()
        for index in 0..<16 {
          state.tokens.append(state.event.observe { [log = state.log] _ in log.append("call \(index)") })
        }
        // Seven tombstones: the next disposal compacts the entries.
        for index in 0..<7 { state.tokens[index].dispose() }
        return state
      },
      operations: [
        { state in state.event.notifyObservers(1) },
        { state in
          for index in [8, 12] {
            state.tokens[index].dispose()
            state.log.append("disposed \(index)")
          }
        },
      ],
      check: { state, trace in
        let lines = state.log.all
        for index in [8, 12] {
          #expect(!state.log.has("call \(index)", after: "disposed \(index)"), "called after dispose returned: \(trace)")
        }
        for index in [7, 9, 10, 11, 13, 14, 15] {
          #expect(lines.filter { $0 == "call \(index)" }.count == 1, "live handler \(index) called once: \(trace)")
        }
        #expect(!lines.contains { ["call 0", "call 6"].contains($0) })
        let calls = lines.filter { $0.hasPrefix("call") }.map { Int($0.dropFirst(5))! }
        #expect(calls == calls.sorted(), "subscription order: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("pass: a subscription ended; taking a fresh snapshot"))
    #expect(report.schedules >= 10)
  }

  @Test("Property: two sets and a new observer racing for the turn (3 operations, every interleaving)")
  func propertyTurn() {
    struct State {
      let property = Property(0, observationTracking: false)
      let first = Guarded<[Int]>([])
      let second = Guarded<[Int]>([])
      let inside = Guarded(0)
      let overlapped = Guarded(false)
      let tokens = Guarded<[any Disposable]>([])
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.tokens.value.append(state.property.observe { [state] value in
          if state.inside.withLock({ $0 += 1; return $0 }) > 1 { state.overlapped.value = true }
          state.first.withLock { $0.append(value) }
          state.inside.withLock { $0 -= 1 }
        })
        return state
      },
      operations: [
        { state in state.property.value = 1 },
        { state in state.property.value = 2 },
        { state in
          let token = state.property.observe { value in state.second.withLock { $0.append(value) } }
          state.tokens.withLock { $0.append(token) }
        },
      ],
      check: { state, trace in
        let final = state.property.value
        #expect([1, 2].contains(final))
        #expect(!state.overlapped.value, "overlapping calls: \(trace)")
        #expect(state.first.value.last == final, "first observer ends on the final value: \(trace)")
        #expect(state.second.value.last == final, "new observer ends on the final value: \(trace)")
        for log in [state.first.value, state.second.value] {
          #expect(Set(log).count == log.count, "a value delivered twice: \(trace)")
        }
        state.tokens.value.forEach { $0.dispose() }
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("property.turn: a request left for the holder"))
    #expect(report.pointsSeen.contains("property.turn: serving a request with the current value"))
  }

  @Test("Re-entrancy frame: a re-entrant notification racing one from another thread (2 operations, every interleaving)")
  func reentrancyFrame() {
    struct State {
      let event = ObservableEvent<Int>()
      let first = Guarded<[Int]>([])
      let second = Guarded<[Int]>([])
      let tokens = Guarded<[any Disposable]>([])
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.tokens.value = [
          state.event.observe { value in
            state.first.withLock { $0.append(value) }
            if value == 1 { state.event.notifyObservers(2) }
          },
          state.event.observe { value in state.second.withLock { $0.append(value) } },
        ]
        return state
      },
      operations: [
        { state in state.event.notifyObservers(1) },
        { state in state.event.notifyObservers(10) },
      ],
      check: { state, trace in
        for log in [state.first.value, state.second.value] {
          #expect(log.sorted() == [1, 2, 10], "every value once: \(trace)")
          #expect(log.filter { $0 != 10 } == [1, 2], "the queued 2 comes after 1: \(trace)")
        }
        state.tokens.value.forEach { $0.dispose() }
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("frame: draining the notifications queued during the pass"))
  }

  @Test("Bound subscriptions: an add that sweeps racing another add (2 operations, every interleaving) loses no subscription")
  func boundSubscriptionsSweep() {
    final class Owner: Sendable {}
    struct State {
      let property = Property(0)
      let list = OwnerLifetimeList()
      let owner = Owner()
      // The subscriptions the source would keep alive (the list holds them weakly).
      let kept = Guarded<[DisposableSlot]>([])

      /// A subscription object on the property, as `ExternalOwner` makes (without listing it
      /// in the process-wide list, which would make the schedule depend on other tests).
      func subscription() -> DisposableSlot {
        let slot = DisposableSlot()
        slot.fill(property.observe { _ in })
        return slot
      }
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        // Ended subscriptions, one short of the sweep size: the next add sweeps.
        for _ in 0..<(OwnerLifetimeList.minimumSweepSize - 1) {
          let slot = state.subscription()
          slot.dispose()
          state.list.add(owner: WeakReference(state.owner), slot)
        }
        return state
      },
      operations: [
        { state in
          let slot = state.subscription()
          state.kept.withLock { $0.append(slot) }
          state.list.add(owner: WeakReference(state.owner), slot)
        },
        { state in
          let slot = state.subscription()
          state.kept.withLock { $0.append(slot) }
          state.list.add(owner: WeakReference(state.owner), slot)
        },
      ],
      check: { state, trace in
        #expect(state.property.observerCount == 2)
        #expect(state.list.count == 2, "the list lost a live subscription or kept an ended one: \(trace)")
        state.kept.value.forEach { $0.dispose() }
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("bound subscriptions: sweeping a copy outside the lock"))
  }

  @Test("Owners: a storage's sweep of dead owners racing an owner-bound add and a dispose (3 operations, every interleaving)")
  func storageOwnerSweep() {
    final class Owner {}
    struct State {
      let event = ObservableEvent<Int>()
      let live = Owner()
      let tokens = Guarded<[any Disposable]>([])
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        // Six dead owners' subscriptions and one live one: an owner-bound add reaches eight
        // links, which sweeps, whichever order the operations run in.
        for _ in 0..<6 { state.event.observe(with: Owner()) { _, _ in } }
        state.tokens.value = [state.event.observe(with: state.live) { _, _ in }]
        return state
      },
      operations: [
        { state in
          let token = state.event.observe(with: state.live) { _, _ in }
          state.tokens.withLock { $0.append(token) }
        },
        { state in
          let token = state.event.observe(with: state.live) { _, _ in }
          state.tokens.withLock { $0.append(token) }
        },
        { state in state.tokens.withLock { $0[0] }.dispose() },
      ],
      check: { state, trace in
        #expect(state.event.observerCount == 2, "the live owner's subscriptions stay: \(trace)")
        let held = state.event.storage.withLock { $0.owners?.bag.liveCount ?? 0 }
        #expect(held == 2, "dead owners' links are gone, live ones kept: \(held), \(trace)")
        state.tokens.value.forEach { $0.dispose() }
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("owners: sweeping a copy outside the lock"))
  }

  @Test("Owners: two counts racing to prune a dead owner (2 operations, every interleaving)")
  func ownerPruning() {
    final class Owner {}
    struct State {
      let event = ObservableEvent<Int>()
      let counts = Guarded<[Int]>([])
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        var owner: Owner? = Owner()
        state.token.value = state.event.observe(with: owner!) { _, _ in }
        state.token.value = state.event.observe { _ in }
        owner = nil
        return state
      },
      operations: [
        { state in
          let count = state.event.observerCount  // not inside withLock: the point parks here
          state.counts.withLock { $0.append(count) }
        },
        { state in
          let count = state.event.observerCount
          state.counts.withLock { $0.append(count) }
        },
      ],
      check: { state, trace in
        #expect(state.counts.value == [1, 1], "a dead owner's subscription never counts: \(trace)")
        #expect(state.event.observerCount == 1)
        state.token.value?.dispose()
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("owners: a dead owner found outside the lock"))
  }

  @Test(
    "Shared delivery: two notifications and a dispose racing one subscription's drain (3 operations, every interleaving)"
    // The explorer drives the drain on the notifying thread, on every delivery path.
  )
  func isolatedDrain() {
    struct State {
      let event = SharedEvent<Int>()
      let log = Log()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = state.event.observe { [log = state.log] value in log.append("call \(value)") }
        return state
      },
      operations: [
        { state in state.event.notifyObservers(1) },
        { state in state.event.notifyObservers(2) },
        { state in
          state.token.value?.dispose()
          state.log.append("disposed")
        },
      ],
      check: { state, trace in
        let lines = state.log.all
        // At most the one call whose value the drain took before dispose() took the lock.
        let afterDispose = lines.drop { $0 != "disposed" }.dropFirst()
        #expect(afterDispose.count <= 1, "values taken after dispose returned: \(trace)")
        #expect(lines.filter { $0 == "call 1" }.count <= 1 && lines.filter { $0 == "call 2" }.count <= 1)
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("isolated.drain: a value taken; calling outside the lock"))
  }

  @Test(
    "Shared delivery: two notifications racing the source's release, which finishes the drain (3 operations, every interleaving)"
    // The explorer drives the drain on the notifying thread, on every delivery path.
  )
  func isolatedDrainFinish() {
    struct State {
      let event = Guarded<SharedEvent<Int>?>(SharedEvent<Int>())
      let log = Log()
      let token = Guarded<(any Disposable)?>(nil)
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = state.event.value!.observe { [log = state.log] value in log.append("call \(value)") }
        return state
      },
      operations: [
        { state in
          guard let event = state.event.value else { return }
          event.notifyObservers(1)
          state.log.append("sent 1")
        },
        { state in
          guard let event = state.event.value else { return }
          event.notifyObservers(2)
          state.log.append("sent 2")
        },
        { state in release(state.event) },
      ],
      check: { state, trace in
        let lines = state.log.all
        for value in [1, 2] where lines.contains("sent \(value)") {
          #expect(lines.filter { $0 == "call \(value)" }.count == 1, "a value notified before the release was lost: \(trace)")
        }
        #expect(state.token.value?.isDisposed == true, "the released source left its subscription open: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("isolated.drain: a value taken; calling outside the lock"))
  }

  @Test(
    "Shared delivery: a main-actor call made without the lock racing a notification and a dispose from other threads (3 operations, every interleaving)"
    // The first operation notifies in a block of the main queue, which `MainActorNow` counts
    // as the main actor wherever it runs.
  )
  func mainActorCallRacesPostAndDispose() {
    // The explorer drives only its own threads. Where worker threads drain the main queue
    // (an async `main` on Linux, this suite's runner there), `DispatchQueue.main.sync` runs
    // the block on the calling thread, inside the explorer's gate. Where the main thread
    // serves the main queue (a run loop on Apple platforms), the block would run outside
    // it and the schedule could not be driven: there the window is left to the
    // parked-thread tests named in Thread Safety. Asked from this test's own thread, which
    // is never the main thread, so the question cannot deadlock.
    let mainQueueRunsOnTheCaller = DispatchQueue.main.sync { !Thread.isMainThread }
    guard mainQueueRunsOnTheCaller else { return }
    struct State {
      let event = SharedEvent<Int>()
      let log = Log()
      let token = Guarded<(any Disposable)?>(nil)
    }
    // `observe(on: MainActor.shared)` takes the path of a main-actor `observe { }`
    // (`MainActorDelivery`), and can be registered here, off the main actor.
    let report = ({
      ScheduleExplorer.explore(
        setUp: {
          let state = State()
          state.token.value = state.event.observe(on: MainActor.shared) { [log = state.log] value in
            log.append("call \(value)")
          }
          return state
        },
        operations: [
          { state in
            DispatchQueue.main.sync {
              state.log.append("sending 1")
              state.event.notifyObservers(1)
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
          let lines = state.log.all
          // At most the one call whose value was taken before dispose() took the lock.
          let afterDispose = lines.drop { $0 != "disposed" }.dropFirst()
          #expect(afterDispose.filter { $0.hasPrefix("call") }.count <= 1, "values taken after dispose returned: \(trace)")
          for value in [1, 2] where state.log.has("sending \(value)", after: "disposed") {
            #expect(!lines.contains("call \(value)"), "a value notified after dispose returned was delivered: \(trace)")
          }
          #expect(lines.filter { $0 == "call 1" }.count <= 1 && lines.filter { $0 == "call 2" }.count <= 1)
        }
      )
    })()
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("mainActor.call: nothing waits; calling without the lock"))
  }
}

/// A disposable that counts how often the bag disposed it.
final class CountingDisposable: Disposable, @unchecked Sendable {
  // `count` and `elsewhere` are only touched under `lock`.
  private let lock = NSLock()
  private var count = 0
  private var elsewhere = false

  /// Makes it report disposed, as if disposed by its own token, without counting.
  func markDisposedElsewhere() {
    lock.lock()
    elsewhere = true
    lock.unlock()
  }

  func dispose() {
    lock.lock()
    count += 1
    lock.unlock()
  }

  var disposals: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return count > 0 || elsewhere
  }
}
