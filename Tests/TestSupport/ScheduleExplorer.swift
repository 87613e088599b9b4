// Gated on Testing: TestSupport is a regular target, which a build of every target for a
// device (xcodebuild build) compiles without the testing frameworks' search paths; the
// test targets, which use these helpers, always have Testing.
#if canImport(Testing)
import Foundation
import Testing

import ObservableKit

/// A small systematic interleaving explorer, in the spirit of CHESS and loom, for the
/// engine's concurrent protocols.
///
/// Each operation runs on its own thread. At every schedule point the engine reaches (see
/// `schedulePoint`), and once before it starts, a thread parks; one thread runs at a time,
/// until it parks again or finishes. The explorer enumerates every sequence of choices of
/// which parked thread goes next, depth first, so every interleaving of the points is run
/// exactly once, and calls `check` after each. Engine code between two points runs without
/// interruption, which is sound because no point is reached while a lock is held: the points
/// are exactly the places where the engine has let go of its lock mid-operation.
public final class ScheduleExplorer: @unchecked Sendable {
  // Every stored property is only touched under `condition`.
  private let condition = NSCondition()
  private var parkedAt: [Int: String] = [:]
  private var finished: Set<Int> = []
  private var granted: Int?

  /// What an exploration ran.
  public struct Report: Sendable {
    public var schedules = 0
    /// The most points one schedule went through (the thread starts included).
    public var longestSchedule = 0
    public var pointsSeen: Set<String> = []
  }

  /// Runs `operations` under every interleaving of their schedule points, up to
  /// `maxSchedules` (a bound that a failing expectation reports if reached).
  ///
  /// - Parameters:
  ///   - setUp: Makes a fresh state for one schedule.
  ///   - operations: One per thread.
  ///   - check: Runs after the threads of a schedule have finished, with its trace.
  public static func explore<State>(
    maxSchedules: Int = 20_000,
    sourceLocation: SourceLocation = #_sourceLocation,
    setUp: () -> State,
    operations: [(State) -> Void],
    check: (State, _ trace: [String]) -> Void
  ) -> Report {
    var report = Report()
    var path: [(choice: Int, count: Int)] = []
    repeat {
      let explorer = ScheduleExplorer()
      // The state and the operations are the test's, usually confined types. The explorer
      // runs one thread at a time and hands over through its condition's lock, so nothing
      // of them is ever touched by two threads at once.
      nonisolated(unsafe) let state = setUp()
      nonisolated(unsafe) let operations = operations
      let runs: [@Sendable () -> Void] = operations.indices.map { index in { operations[index](state) } }
      guard let trace = explorer.run(runs, path: &path, sourceLocation: sourceLocation) else { return report }
      check(state, trace)
      report.schedules += 1
      report.longestSchedule = max(report.longestSchedule, trace.count)
      for step in trace { report.pointsSeen.insert(String(step.drop { $0 != " " }.dropFirst())) }
      // The next schedule: the last choice that has an alternative takes it.
      while let last = path.last, last.choice + 1 >= last.count { path.removeLast() }
      if !path.isEmpty { path[path.count - 1].choice += 1 }
    } while !path.isEmpty && report.schedules < maxSchedules
    #expect(path.isEmpty, "exploration stopped at the bound of \(maxSchedules) schedules", sourceLocation: sourceLocation)
    return report
  }

  /// Runs one schedule: follows `path` where it has choices and extends it with first choices
  /// past its end. Returns the trace, or nil after recording a deadlock or a divergence.
  private func run(
    _ operations: [@Sendable () -> Void],
    path: inout [(choice: Int, count: Int)],
    sourceLocation: SourceLocation
  ) -> [String]? {
    let threads = operations.count
    for (index, operation) in operations.enumerated() {
      let gate = ScheduleGate { [self] name in park(index, at: "\(name)") }
      let thread = Thread { [self] in
        ScheduleGate.install(gate) {
          park(index, at: "start")
          operation()
        }
        condition.lock()
        finished.insert(index)
        condition.broadcast()
        condition.unlock()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
    var trace: [String] = []
    condition.lock()
    defer { condition.unlock() }
    while true {
      let deadline = Date().addingTimeInterval(10)
      while parkedAt.count + finished.count < threads {
        if !condition.wait(until: deadline) {
          Issue.record("schedule stuck after \(trace): a thread blocked outside the schedule points",
                       sourceLocation: sourceLocation)
          return nil
        }
      }
      if finished.count == threads { return trace }
      let enabled = parkedAt.keys.sorted()
      let step = trace.count
      if step == path.count { path.append((0, enabled.count)) }
      guard path[step].count == enabled.count else {
        Issue.record("schedule diverged at step \(step) of \(trace): not deterministic", sourceLocation: sourceLocation)
        return nil
      }
      let chosen = enabled[path[step].choice]
      trace.append("\(chosen) \(parkedAt[chosen]!)")
      parkedAt[chosen] = nil
      granted = chosen
      condition.broadcast()
    }
  }

  /// Parks thread `index` at `point` until the schedule lets it go on.
  private func park(_ index: Int, at point: String) {
    condition.lock()
    parkedAt[index] = point
    condition.broadcast()
    while granted != index { condition.wait() }
    granted = nil
    condition.unlock()
  }
}
#endif
