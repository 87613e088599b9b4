import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Every interleaving of the lock windows that the shared owner-bound deliveries, the release
/// of a source under a drain and the release of a hub add, with the contract
/// checked after each schedule. See `ScheduleExplorationTests` for the explorer.
@Suite("Schedule exploration: hubs and the shared family")
struct ScheduleExplorationFamilyTests {
  typealias Log = ScheduleExplorationTests.Log

  /// An owner that logs the start of its deinit.
  final class Owner: Sendable {
    let log: Log

    init(_ log: Log) {
      self.log = log
    }

    deinit {
      log.append("owner deinit")
    }
  }

  @Test("Shared owner-bound: two sets racing the owner's release (3 operations, every interleaving); nothing is called once its deinit began")
  func sharedOwnerBoundRelease() {
    struct State {
      let property = SharedProperty(0)
      let log = Log()
      let owner: Guarded<Owner?>
      let token = Guarded<(any Disposable)?>(nil)

      init() {
        owner = Guarded(Owner(log))
      }
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = state.property.observe(with: state.owner.value!) { [log = state.log] _, value in
          log.append("call \(value)")
        }
        return state
      },
      operations: [
        { state in state.property.value = 1 },
        { state in state.property.value = 2 },
        { state in release(state.owner) },
      ],
      check: { state, trace in
        let lines = state.log.all
        #expect(lines.contains("owner deinit"))
        #expect(
          !lines.drop { $0 != "owner deinit" }.contains { $0.hasPrefix("call") },
          "a call after the owner's deinit began: \(trace)")
        #expect(lines.filter { $0 == "call 1" }.count <= 1 && lines.filter { $0 == "call 2" }.count <= 1)
        #expect(state.property.observerCount == 0, "the dead owner's subscription still counts: \(trace)")
        #expect(state.token.value?.isDisposed == true, "counting found the owner gone but left the delivery open: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("isolated.drain: a value taken; calling outside the lock"))
  }

  @Test("SharedEvent owner-bound, nonisolated: two notifications racing a dispose (3 operations, every interleaving); no value is taken after it returns")
  func sharedEventOwnerBoundDispose() {
    struct State {
      let event = SharedEvent<Int>()
      let log = Log()
      let owner: Owner
      let token = Guarded<(any Disposable)?>(nil)

      init() {
        owner = Owner(log)
      }
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = state.event.observe(with: state.owner) { [log = state.log] _, value in
          log.append("call \(value)")
        }
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
        // At most the one call whose value a drain took before dispose() took the lock.
        #expect(lines.drop { $0 != "disposed" }.dropFirst().count <= 1, "values taken after dispose returned: \(trace)")
        #expect(lines.filter { $0 == "call 1" }.count <= 1 && lines.filter { $0 == "call 2" }.count <= 1)
        #expect(state.event.observerCount == 0, "disposed but still counting: \(trace)")
        #expect(state.token.value?.isDisposed == true)
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("owner.nonisolated: a value taken; calling outside the lock"))
  }

  @Test("SharedEvent owner-bound, nonisolated: two notifications racing the owner's release (3 operations, every interleaving); nothing is called once its deinit began")
  func sharedEventOwnerBoundRelease() {
    struct State {
      let event = SharedEvent<Int>()
      let log = Log()
      let owner: Guarded<Owner?>
      let token = Guarded<(any Disposable)?>(nil)

      init() {
        owner = Guarded(Owner(log))
      }
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = state.event.observe(with: state.owner.value!) { [log = state.log] _, value in
          log.append("call \(value)")
        }
        return state
      },
      operations: [
        { state in
          state.event.notifyObservers(1)
          state.log.append("sent 1")
        },
        { state in
          state.event.notifyObservers(2)
          state.log.append("sent 2")
        },
        { state in release(state.owner) },
      ],
      check: { state, trace in
        let lines = state.log.all
        #expect(lines.contains("owner deinit"))
        #expect(
          !lines.drop { $0 != "owner deinit" }.contains { $0.hasPrefix("call") },
          "a call after the owner's deinit began: \(trace)")
        #expect(lines.filter { $0 == "call 1" }.count <= 1 && lines.filter { $0 == "call 2" }.count <= 1)
        #expect(state.event.observerCount == 0, "the dead owner's subscription still counts: \(trace)")
        #expect(state.token.value?.isDisposed == true, "the dead owner's subscription reports live: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("owner.nonisolated: a value taken; calling outside the lock"))
  }

  @Test("Shared owner-bound: a set racing unsubscribe(owner) of observe(with:) and subscribe (2 operations, every interleaving); no value is taken after it returns")
  func sharedOwnerBoundUnsubscribe() {
    struct State {
      let property = SharedProperty(0)
      let log = Log()
      let owner: Owner
      let token = Guarded<(any Disposable)?>(nil)
      let changes = Guarded<(any Disposable)?>(nil)

      init() {
        owner = Owner(log)
      }
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        state.token.value = state.property.observe(with: state.owner) { [log = state.log] _, value in
          log.append("call \(value)")
        }
        state.changes.value = state.property.subscribe(state.owner) { [log = state.log] _, new, _ in log.append("change \(new)") }
        return state
      },
      operations: [
        { state in state.property.value = 1 },
        { state in
          state.property.unsubscribe(state.owner)
          state.log.append("unsubscribed")
          state.property.value = 2
        },
      ],
      check: { state, trace in
        let lines = state.log.all
        let after = lines.drop { $0 != "unsubscribed" }.dropFirst()
        // At most the call whose value a drain took before unsubscribe took the lock.
        #expect(after.filter { $0.hasPrefix("call") }.count <= 1, "values taken after unsubscribe returned: \(trace)")
        #expect(after.filter { $0.hasPrefix("change") }.count <= 1, "values taken after unsubscribe returned: \(trace)")
        #expect(!lines.contains("call 2") && !lines.contains("change 2"))
        #expect(state.property.observerCount == 0)
        #expect(state.token.value?.isDisposed == true && state.changes.value?.isDisposed == true)
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
  }

  @Test("Source release under a drain: a take(2) chain delivered with the caller's isolation, two notifications and the release (3 operations, every interleaving)")
  func takeChainSourceRelease() {
    struct State {
      let event = Guarded<SharedEvent<Int>?>(SharedEvent<Int>())
      let log = Log()
      let tokens = Guarded<[any Disposable]>([])
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let event = state.event.value!
        state.tokens.value = [event.take(2).observe { [log = state.log] value in log.append("take \(value)") }]
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
          #expect(lines.filter { $0 == "take \(value)" }.count == 1, "a value notified before the release was lost: \(trace)")
        }
        #expect(state.tokens.value.allSatisfy { $0.isDisposed }, "a subscription of the released source is open: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("storage.removeAll: the handlers are released outside the lock"))
  }

  @Test("Source release racing a notification: take chains delivered on the notifying thread and with the caller's isolation (2 operations, every interleaving)")
  func takeChainsSourceReleaseRacingNotify() {
    struct State {
      let event = Guarded<SharedEvent<Int>?>(SharedEvent<Int>())
      let log = Log()
      let tokens = Guarded<[any Disposable]>([])
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let event = state.event.value!
        state.tokens.value = [
          event.take(3).observeNonisolated { [log = state.log] value in log.append("direct \(value)") },
          event.once().observe { [log = state.log] value in log.append("once \(value)") },
        ]
        return state
      },
      operations: [
        { state in
          guard let event = state.event.value else { return }
          event.notifyObservers(1)
          state.log.append("sent 1")
        },
        { state in release(state.event) },
      ],
      check: { state, trace in
        let lines = state.log.all
        let expected = lines.contains("sent 1") ? 1 : 0
        #expect(lines.filter { $0 == "direct 1" }.count == expected, "\(trace)")
        #expect(lines.filter { $0 == "once 1" }.count == expected, "\(trace)")
        #expect(state.tokens.value.allSatisfy { $0.isDisposed }, "a take disposable of the released source is open: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
  }

  @Test("Hub release racing a post: a post and the hub's release, owner-bound, once, take and isolation-inheriting subscriptions (2 operations, every interleaving)")
  func hubReleaseRacingPosts() {
    struct State {
      static let message = HubMessage<Int>("m")
      let hub = Guarded<SharedEventHub?>(SharedEventHub())
      let log = Log()
      let owner: Owner
      let tokens = Guarded<[any Disposable]>([])

      init() {
        owner = Owner(log)
      }
    }
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        let hub = state.hub.value!
        state.tokens.value = [
          hub.observe(State.message, with: state.owner) { [log = state.log] _, value in log.append("owner \(value)") },
          hub.events(State.message).once().observe { [log = state.log] value in log.append("once \(value)") },
          hub.observe(State.message) { [log = state.log] value in log.append("isolated \(value)") },
          hub.events(State.message).take(2).observeNonisolated { _ in },
        ]
        return state
      },
      operations: [
        { state in
          guard let hub = state.hub.value else { return }
          hub.post(State.message, 1)
          state.log.append("sent 1")
        },
        { state in release(state.hub) },
      ],
      check: { state, trace in
        let lines = state.log.all
        let sent = [1].filter { lines.contains("sent \($0)") }
        for value in sent {
          #expect(lines.filter { $0 == "owner \(value)" }.count == 1, "a post made before the release was lost: \(trace)")
          #expect(lines.filter { $0 == "isolated \(value)" }.count == 1, "a post made before the release was lost: \(trace)")
        }
        #expect(lines.filter { $0.hasPrefix("once") }.count == (sent.isEmpty ? 0 : 1), "\(trace)")
        #expect(state.tokens.value.allSatisfy { $0.isDisposed }, "a subscription of the released hub is open: \(trace)")
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(#function)")
    #expect(report.pointsSeen.contains("storage.removeAll: the handlers are released outside the lock"))
  }
}

/// Empties `holder` and releases what it held outside its lock, where the release may reach
/// a schedule point (a source's deinit ends its subscriptions at one).
func release<Object: AnyObject>(_ holder: Guarded<Object?>) {
  let released = holder.withLock { held in
    defer { held = nil }
    return held
  }
  withExtendedLifetime(released) {}
}
