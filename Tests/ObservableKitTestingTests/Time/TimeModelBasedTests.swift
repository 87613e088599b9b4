import Foundation
import ObservableKit
import ObservableKitTesting
import TestSupport
import Testing

// The model-based walk of `ModelBasedTests`, for the time operators on `ManualClock`: four
// sources (ObservableEvent, Property, SharedEvent, SharedProperty), each with at most one
// time-operator subscription at a time (debounce, throttle(latest: true/false) or delay), and
// random notifications, advances, disposals with a new subscription, and handlers that
// notify their own source again (re-entrant). A reference model of each rule, in whole
// milliseconds, says what each handler heard; checked after every step, and a disposed
// subscription hears nothing more.
//
// The walk runs on the main actor, the actor of the confined operators and the `isolation`
// of the shared ones, and gives it back every few steps.
//
// Replay a failure with OBSERVABLEKIT_MODEL_SEED=<seed> swift test --filter TimeModelBased

/// One rule, as the Contracts article states it, with nothing of threads or windows: each
/// event (an arrival, a deadline) happens at a whole millisecond, one after another.
struct TimeRuleModel {
  let kind: TimeRuleKind
  let duration: Int
  // debounce
  var waiting: (value: Int, deadline: Int)?
  // throttle
  var end: Int?
  var held: Int?
  // delay
  var queue: [(deadline: Int, value: Int)] = []

  init(_ kind: TimeRuleKind, duration: Int) {
    self.kind = kind
    self.duration = duration
  }

  /// A value arrives at `now`: what goes at once.
  mutating func arrive(_ value: Int, at now: Int) -> Int? {
    switch kind {
    case .debounce:
      waiting = (value, now + duration)
      return nil
    case .throttleLatest, .throttleFirst:
      guard end != nil else {
        end = now + duration
        return value
      }
      if kind == .throttleLatest || held == nil { held = value }
      return nil
    case .delay:
      queue.append((now + duration, value))
      return nil
    }
  }

  /// The next instant something happens.
  var nextDeadline: Int? {
    switch kind {
    case .debounce: waiting?.deadline
    case .throttleLatest, .throttleFirst: end
    case .delay: queue.first?.deadline
    }
  }

  /// The instant `time` (the next deadline) has come: what goes then.
  mutating func fire(at time: Int) -> [Int] {
    switch kind {
    case .debounce:
      defer { waiting = nil }
      return waiting.map { [$0.value] } ?? []
    case .throttleLatest, .throttleFirst:
      guard let value = held else {
        end = nil
        return []
      }
      held = nil
      end = time + duration
      return [value]
    case .delay:
      let due = queue.prefix { $0.deadline <= time }.map(\.value)
      queue.removeFirst(due.count)
      return due
    }
  }
}

enum TimeOperation: CustomStringConvertible {
  case notify(TimeSurface, Int)
  case advance(Int)
  case resubscribe(TimeSurface, TimeRuleKind, duration: Int, reacts: Bool)
  /// Advance to the next deadline while the main actor is busy, and notify the value at that
  /// instant, after the clock claimed the deadline and before its firing runs.
  case notifyInWindow(TimeSurface, Int)

  var description: String {
    switch self {
    case let .notify(s, v): "notify(\(s), \(v))"
    case let .advance(ms): "advance(\(ms) ms)"
    case let .resubscribe(s, k, d, r): "resubscribe(\(s), \(k), \(d) ms\(r ? ", reacts" : ""))"
    case let .notifyInWindow(s, v): "notifyInWindow(\(s), \(v))"
    }
  }
}

@MainActor
@Suite("Model-based: the time operators on ManualClock")
struct TimeModelBasedTests {
  static let walks = 16
  static let operationsPerWalk = 300
  static let stepsPerTurn = 25
  /// A handler that reacts notifies its own source with `value + reactionOffset`.
  nonisolated static let reactionOffset = 100_000

  /// One subscription: the model's log and the handler's.
  final class Slot {
    let surface: TimeSurface
    var model: TimeRuleModel
    let reacts: Bool
    var expected: [Int] = []
    var heard: [Int] = []
    var token: (any Disposable)?

    init(surface: TimeSurface, model: TimeRuleModel, reacts: Bool) {
      self.surface = surface
      self.model = model
      self.reacts = reacts
    }

    func reacts(to value: Int) -> Bool {
      reacts && value < TimeModelBasedTests.reactionOffset && value % 4 == 0
    }
  }

  struct Failure {
    let prefix: [TimeOperation]
    let message: String
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test("random notifications, advances, disposals and re-entrant notifies match the reference model of each rule, both families")
  func randomWalk() async {
    let fixed = ProcessInfo.processInfo.environment["OBSERVABLEKIT_MODEL_SEED"].flatMap(UInt64.init)
    let seeds = fixed.map { [$0] } ?? (0..<Self.walks).map { _ in UInt64.random(in: 0...UInt64.max) }
    for seed in seeds {
      if let failure = await Self.walk(seed: seed, operations: Self.operationsPerWalk) {
        Issue.record("""
          Model mismatch with seed \(seed) after \(failure.prefix.count) operations.
          \(failure.message)
          Last operations: \(failure.prefix.suffix(12).map(\.description).joined(separator: ", "))
          Replay: OBSERVABLEKIT_MODEL_SEED=\(seed) swift test --filter TimeModelBased
          """)
        return
      }
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static func randomOperation(using random: inout SeededRandom, next value: inout Int) -> TimeOperation {
    let surface = TimeSurface.allCases.randomElement(using: &random)!
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<42:
      value += 1
      return .notify(surface, value)
    case 42..<50:
      value += 1
      return .notifyInWindow(surface, value)
    case 50..<85:
      // Whole durations too, so that values land exactly on deadlines.
      let step = [0, 1, 20, 40, 59, 60, 99, 100, 100, 120, 200, 250].randomElement(using: &random)!
      return .advance(step)
    default:
      return .resubscribe(
        surface, TimeRuleKind.allCases.randomElement(using: &random)!,
        duration: [60, 100].randomElement(using: &random)!, reacts: Bool.random(using: &random))
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static func walk(seed: UInt64, operations: Int) async -> Failure? {
    var random = SeededRandom(seed: seed)
    let clock = ManualClock()
    let subjects = TimeSurface.allCases.map { TimeSubject($0) }
    var slots: [Slot?] = Array(repeating: nil, count: subjects.count)
    var ended: [Slot] = []
    var now = 0
    var pending: [(surface: Int, value: Int)] = []
    var nextValue = 0
    var done: [TimeOperation] = []
    defer { slots.forEach { $0?.token?.dispose() } }

    func index(_ surface: TimeSurface) -> Int { TimeSurface.allCases.firstIndex(of: surface)! }

    func deliver(_ values: [Int], to slot: Slot) {
      for value in values {
        slot.expected.append(value)
        if slot.reacts(to: value) { pending.append((index(slot.surface), value + reactionOffset)) }
      }
    }

    /// Arrivals at `now`, re-entrant ones after the step that caused them, as the sources queue them.
    func drain() {
      while !pending.isEmpty {
        let (surface, value) = pending.removeFirst()
        guard let slot = slots[surface] else { continue }
        if let atOnce = slot.model.arrive(value, at: now) { deliver([atOnce], to: slot) }
      }
    }

    func nextDeadline() -> Int? {
      slots.compactMap { $0?.model.nextDeadline }.min()
    }

    /// Fires the model's deadlines up to `target`, in order, each with the arrivals it causes.
    func advanceModel(to target: Int) {
      while let (slot, time) = slots.compactMap({ slot in slot.flatMap { s in s.model.nextDeadline.map { (s, $0) } } })
        .min(by: { $0.1 < $1.1 }), time <= target
      {
        now = time
        deliver(slot.model.fire(at: time), to: slot)
        drain()
      }
      now = target
    }

    for _ in 0..<operations {
      let operation = randomOperation(using: &random, next: &nextValue)
      done.append(operation)
      switch operation {
      case let .notify(surface, value):
        pending.append((index(surface), value))
        drain()
        subjects[index(surface)].send(value)
      case let .advance(step):
        advanceModel(to: now + step)
        await clock.advance(to: .init(offset: .milliseconds(now)))
      case let .notifyInWindow(surface, value):
        let i = index(surface)
        // Only when nothing is due before that deadline (the busy main actor would hold those
        // firings back), and the source's handler does not react (a reaction notified when
        // the firing runs then comes after this value: the order is the window's, not the model's).
        guard let deadline = nextDeadline(), slots[i]?.reacts != true else {
          pending.append((i, value))
          drain()
          subjects[i].send(value)
          break
        }
        advanceModel(to: deadline)
        pending.append((i, value))
        drain()
        // The main actor is held busy only once the advancing task runs on a thread (see
        // TimeFiringWindowTests.advanceOnRunningTask): a busy pool then delays the advance
        // while the main actor is still free.
        let (started, starting) = AsyncStream<Void>.makeStream()
        let advancing = Task.detached {
          starting.yield()
          starting.finish()
          await clock.advance(to: .init(offset: .milliseconds(deadline)))
        }
        for await _ in started { break }
        let limit = ContinuousClock.now.advanced(by: .seconds(10))
        while clock.now.offset < .milliseconds(deadline) {
          if ContinuousClock.now > limit { return Failure(prefix: done, message: "the clock never claimed \(deadline) ms") }
        }
        subjects[i].send(value)
        await advancing.value
      case let .resubscribe(surface, kind, duration, reacts):
        let i = index(surface)
        if let old = slots[i] {
          old.token?.dispose()
          old.token = nil
          ended.append(old)
        }
        let slot = Slot(surface: surface, model: TimeRuleModel(kind, duration: duration), reacts: reacts)
        let subject = subjects[i]
        slot.token = subject.subscribe(kind, for: .milliseconds(duration), clock: clock) { [weak slot, weak subject] value in
          guard let slot else { return }
          slot.heard.append(value)
          if slot.reacts(to: value) { subject?.send(value + reactionOffset) }
        }
        slots[i] = slot
      }
      for slot in slots.compactMap({ $0 }) + ended where slot.heard != slot.expected {
        return Failure(
          prefix: done,
          message: "\(slot.surface) \(slot.model.kind) (\(slot.model.duration) ms\(slot.reacts ? ", reacts" : "")\(slot.token == nil ? ", disposed" : "")) at \(now) ms: heard \(slot.heard), the model says \(slot.expected)")
      }
      if done.count % stepsPerTurn == 0 { await Task.yield() }
    }
    return nil
  }
}
