import Foundation
import Testing
import TestSupport

@testable import ObservableKit

// Model-based walks of replay and flatMapLatest, both families: random operations on the
// real sources and on a reference model, every subscription's log compared with the model's
// after every step.
//
// Replay a failure with OBSERVABLEKIT_MODEL_SEED=<seed> swift test --filter ModelBasedStreams

@Suite("Model-based: replay and flatMapLatest")
struct ModelBasedStreamsTests {
  static var seed: UInt64 {
    ProcessInfo.processInfo.environment["OBSERVABLEKIT_MODEL_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 0...UInt64.max)
  }

  /// One subscription: the real log, what the model expects, and its token.
  final class Subscriber: @unchecked Sendable {
    // `log` is only touched under the log's own lock; the rest by the walk's thread.
    let log = ValueLog<Int>()
    var expected: [Int] = []
    var remaining: Int?
    var token: (any Disposable)?
  }

  @Test("replay: notify, observe (plain, take(k), shared), dispose; each log is the model's after every step", arguments: [false, true])
  func replayWalk(shared: Bool) {
    let seed = Self.seed
    var random = SeededRandom(seed: seed)
    for round in 0..<20 {
      let capacity = Int.random(in: -1...5, using: &random)
      let confined = ObservableEvent<Int>(replay: capacity)
      let sharedEvent = SharedEvent<Int>(replay: capacity)
      var ring: [Int] = []
      var subscribers: [Subscriber] = []
      var next = 0
      for step in 0..<300 {
        switch subscribers.count >= 8 ? 9 : Int.random(in: 0..<10, using: &random) {
        case 0..<5:
          next += 1
          if shared { sharedEvent.notifyObservers(next) } else { confined.notifyObservers(next) }
          ring.append(next)
          if ring.count > max(capacity, 0) { ring.removeFirst(ring.count - max(capacity, 0)) }
          for subscriber in subscribers { subscriber.deliver(next) }
        case 5..<8:
          let subscriber = Subscriber()
          let take = Int.random(in: 0..<3, using: &random) == 0 ? Int.random(in: 1...4, using: &random) : nil
          subscriber.remaining = take
          for value in ring { subscriber.deliver(value) }
          let handler = subscriber.log.handler
          if shared {
            let source = take.map { sharedEvent.take($0) } ?? sharedEvent.readOnly
            subscriber.token = source.observeNonisolated(handler)
          } else {
            let source = take.map { confined.take($0) } ?? confined.readOnly
            subscriber.token = source.observe(handler)
          }
          subscribers.append(subscriber)
        default:
          guard !subscribers.isEmpty else { continue }
          let index = Int.random(in: 0..<subscribers.count, using: &random)
          subscribers[index].token?.dispose()
          subscribers.remove(at: index)
        }
        for subscriber in subscribers where subscriber.log.values != subscriber.expected {
          Issue.record("""
            replay model mismatch (seed \(seed), round \(round), step \(step), replay: \(capacity)): \
            \(subscriber.log.values) != \(subscriber.expected). Replay: OBSERVABLEKIT_MODEL_SEED=\(seed)
            """)
          return
        }
      }
      for subscriber in subscribers { subscriber.token?.dispose() }
      #expect(confined.observerCount == 0 && sharedEvent.observerCount == 0)
    }
  }

  @Test("flatMapLatest: select an inner property, set inners, observe, observeChanges, dispose; each log is the model's after every step", arguments: [false, true])
  func flatMapLatestWalk(shared: Bool) {
    let seed = Self.seed
    var random = SeededRandom(seed: seed)
    let inners = (0..<3).map { Property($0 * 100) }
    let sharedInners = (0..<3).map { SharedProperty($0 * 100) }
    let selected = Property(0)
    let sharedSelected = SharedProperty(0)
    let flattened = selected.flatMapLatest { inners[$0] }
    let sharedFlattened = sharedSelected.flatMapLatest { sharedInners[$0] }
    var model = (selected: 0, values: [0, 100, 200])
    var subscribers: [Subscriber] = []
    var next = 0
    for step in 0..<2_000 {
      // At most 8 subscriptions at once, so that the logs stay short to compare.
      switch subscribers.count >= 8 ? 9 : Int.random(in: 0..<10, using: &random) {
      case 0..<3:
        let index = Int.random(in: 0..<3, using: &random)
        if shared { sharedSelected.value = index } else { selected.value = index }
        model.selected = index
        for subscriber in subscribers { subscriber.deliver(model.values[index]) }
      case 3..<7:
        let index = Int.random(in: 0..<3, using: &random)
        next += 1
        if shared { sharedInners[index].value = next } else { inners[index].value = next }
        model.values[index] = next
        if index == model.selected { for subscriber in subscribers { subscriber.deliver(next) } }
      case 7..<9:
        let subscriber = Subscriber()
        let changesOnly = Bool.random(using: &random)
        if !changesOnly { subscriber.deliver(model.values[model.selected]) }
        let handler = subscriber.log.handler
        subscriber.token =
          switch (shared, changesOnly) {
          case (false, false): flattened.observe(handler)
          case (false, true): flattened.observeChanges(handler)
          case (true, false): sharedFlattened.observeNonisolated(handler)
          case (true, true): sharedFlattened.observeChangesNonisolated(handler)
          }
        subscribers.append(subscriber)
      default:
        guard !subscribers.isEmpty else { continue }
        let index = Int.random(in: 0..<subscribers.count, using: &random)
        subscribers[index].token?.dispose()
        subscribers.remove(at: index)
      }
      let value = shared ? sharedFlattened.value : flattened.value
      if value != model.values[model.selected] {
        Issue.record("flatMapLatest value \(value) != model (seed \(seed), step \(step))")
        return
      }
      for subscriber in subscribers where subscriber.log.values != subscriber.expected {
        Issue.record("""
          flatMapLatest model mismatch (seed \(seed), step \(step)): \(subscriber.log.values) != \
          \(subscriber.expected). Replay: OBSERVABLEKIT_MODEL_SEED=\(seed)
          """)
        return
      }
      // Only the selected inner is observed, once per subscription.
      let counts = shared ? sharedInners.map(\.observerCount) : inners.map(\.observerCount)
      for (index, count) in counts.enumerated() where count != (index == model.selected ? subscribers.count : 0) {
        Issue.record("inner \(index) has \(count) observers (seed \(seed), step \(step))")
        return
      }
    }
    for subscriber in subscribers { subscriber.token?.dispose() }
    #expect(selected.observerCount == 0 && sharedSelected.observerCount == 0)
  }
}

extension ModelBasedStreamsTests.Subscriber {
  /// The model's delivery: appended unless a take(k) has ended.
  func deliver(_ value: Int) {
    if let remaining {
      guard remaining > 0 else { return }
      self.remaining = remaining - 1
    }
    expected.append(value)
  }
}
