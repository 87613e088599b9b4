import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Every interleaving of the window "a timer fires while a value arrives", for each time rule
/// and both families' relays: the timer has claimed a deadline and its task runs the firing
/// (the hop to the operator's actor is the window before the rule's lock), while a value
/// arrives, timed at that same instant, on another thread. Checked after each schedule: the
/// firing delivered exactly what was due at the claimed deadline (nothing early, nothing
/// lost), and the deadline left armed is the new value's, which then delivers it. See
/// `ScheduleExplorationTests` for the explorer.
@Suite("Schedule exploration: the time operators")
struct ScheduleExplorationTimeTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  typealias Instant = ContinuousClock.Instant

  /// A timer that never fires by itself: the schedule calls the relay's firing directly.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class IdleTimer: ClockTimer {
    func arm(at deadline: ContinuousClock.Instant) {}
    func cancel() {}
    func next() async -> ContinuousClock.Instant? { nil }
    func didHandle() {}
  }

  final class NoDownstream: Disposable {
    func dispose() {}
    var isDisposed: Bool { false }
  }

  /// One schedule's relay, driven by hand, with what it delivered and what it armed.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  final class State {
    let base = ContinuousClock.now
    let log = Guarded<[Int]>([])
    let armed = Guarded<[Instant]>([])
    var arrive: (Int, Instant) -> Void = { _, _ in }
    var fire: (Instant) -> Void = { _ in }
    var keep: [Any] = []

    func at(_ milliseconds: Int) -> Instant { base.advanced(by: .milliseconds(milliseconds)) }
  }

  enum Family: CaseIterable, CustomStringConvertible {
    case confined, shared
    var description: String { self == .confined ? "confined" : "shared" }
  }

  /// One window per rule: values sent before it (value, arrival in milliseconds), and what
  /// the firing at 100 ms delivers on top of what they delivered at once. 9 arrives at 100 ms.
  enum Scenario: CaseIterable, CustomStringConvertible {
    case debounce, throttleLatest, throttleFirst, throttleWithNothingWaiting, delay

    var before: [(value: Int, at: Int)] {
      switch self {
      case .throttleLatest, .throttleFirst: [(1, 0), (2, 50), (3, 60)]
      default: [(1, 0)]
      }
    }

    var expectedAtDeadline: [Int] {
      switch self {
      case .debounce, .delay: [1]
      case .throttleLatest: [1, 3]
      case .throttleFirst: [1, 2]
      case .throttleWithNothingWaiting: [1, 9]
      }
    }

    @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
    func maker() -> any TimeRuleMaker {
      switch self {
      case .debounce: Maker { DebounceRule<Int, Instant>(duration: .milliseconds(100), start: .now) }
      case .throttleLatest, .throttleWithNothingWaiting:
        Maker { ThrottleRule<Int, Instant>(interval: .milliseconds(100), latest: true, start: .now) }
      case .throttleFirst: Maker { ThrottleRule<Int, Instant>(interval: .milliseconds(100), latest: false, start: .now) }
      case .delay: Maker { DelayRule<Int, Instant>(duration: .milliseconds(100)) }
      }
    }

    var description: String {
      switch self {
      case .debounce: "debounce"
      case .throttleLatest: "throttle(latest: true)"
      case .throttleFirst: "throttle(latest: false)"
      case .throttleWithNothingWaiting: "throttle, an interval with nothing waiting"
      case .delay: "delay"
      }
    }
  }

  @Test(
    "A timer fires while a value arrives at the claimed deadline (2 operations, every interleaving): the firing delivers what was due then, the value goes at its own deadline",
    arguments: Scenario.allCases, Family.allCases)
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func timerFiresWhileAValueArrives(scenario: Scenario, family: Family) {
    let report = ScheduleExplorer.explore(
      setUp: {
        let state = State()
        scenario.maker().install(in: state, family: family)
        for (value, at) in scenario.before { state.arrive(value, state.at(at)) }
        return state
      },
      operations: [
        { state in state.fire(state.at(100)) },  // the timer claimed 100 ms; its task runs
        { state in state.arrive(9, state.at(100)) },  // a value arrives at 100 ms
      ],
      check: { state, trace in
        let nothingWaited = scenario.expectedAtDeadline.last == 9
        #expect(state.log.value == scenario.expectedAtDeadline, "\(scenario) (\(family)): \(trace)")
        if nothingWaited {
          // The value opened an interval of its own: what is armed is its end, which delivers nothing.
          #expect(state.armed.value.last == state.at(200), "\(scenario) (\(family)): \(trace)")
          state.fire(state.at(200))
          #expect(state.log.value == scenario.expectedAtDeadline, "\(scenario) (\(family)): \(trace)")
        } else {
          #expect(state.armed.value.last == state.at(200), "the new value's deadline is not armed: \(scenario) (\(family)): \(trace)")
          state.fire(state.at(199))
          #expect(state.log.value == scenario.expectedAtDeadline, "went early: \(scenario) (\(family)): \(trace)")
          state.fire(state.at(200))
          #expect(state.log.value == scenario.expectedAtDeadline + [9], "lost: \(scenario) (\(family)): \(trace)")
        }
      }
    )
    print("explored \(report.schedules) schedules of up to \(report.longestSchedule) points: \(scenario) (\(family))")
    #expect(report.pointsSeen.contains("time.fire: the deadline claimed; the rule rechecks it under its lock"))
    #expect(report.pointsSeen.contains("time.arrive: decided; delivering outside the lock"))
    #expect(report.schedules >= 6)
  }
}

/// Builds a relay of one family around a rule, erasing the rule's type for the scenarios.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
protocol TimeRuleMaker {
  func install(in state: ScheduleExplorationTimeTests.State, family: ScheduleExplorationTimeTests.Family)
}

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct Maker<Rule: TimeRule & Sendable>: TimeRuleMaker where Rule.Value == Int, Rule.Instant == ContinuousClock.Instant {
  let make: () -> Rule

  init(_ make: @escaping () -> Rule) {
    self.make = make
  }

  func install(in state: ScheduleExplorationTimeTests.State, family: ScheduleExplorationTimeTests.Family) {
    let armed = state.armed
    let log = state.log
    switch family {
    case .confined:
      let relay = TimedRelay(make())
      let output = relay.output.observe { value in log.withLock { $0.append(value) } }
      let loop = TimerLoop(
        timer: ScheduleExplorationTimeTests.IdleTimer(),
        armTimer: { deadline in armed.withLock { $0.append(deadline) } },
        downstream: ScheduleExplorationTimeTests.NoDownstream(),
        heldValues: RuleRelease(relay.rule))
      state.arrive = { relay.arrive($0, at: $1, arming: loop) }
      state.fire = { relay.fire(at: $0, arming: loop) }
      state.keep = [relay, output, loop]
    case .shared:
      let relay = SharedTimedRelay(make()) { value in log.withLock { $0.append(value) } }
      let loop = TimerLoop(
        timer: ScheduleExplorationTimeTests.IdleTimer(),
        armTimer: { deadline in armed.withLock { $0.append(deadline) } },
        downstream: ScheduleExplorationTimeTests.NoDownstream(),
        heldValues: RuleRelease(relay.rule))
      state.arrive = { relay.arrive($0, at: $1, arming: loop) }
      state.fire = { relay.fire(at: $0, arming: loop) }
      state.keep = [relay, loop]
    }
  }
}
