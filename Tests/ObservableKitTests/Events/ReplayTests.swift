import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Replay: ObservableEvent(replay:) and SharedEvent(replay:)")
struct ReplayTests {
  @Test("a new observer first hears the last n values, oldest first, then live values")
  func lastValuesThenLive() {
    let event = ObservableEvent<Int>(replay: 3)
    for value in 1...5 { event.notifyObservers(value) }
    var heard: [Int] = []
    let token = event.observe { heard.append($0) }
    #expect(heard == [3, 4, 5], "the replay is delivered inside observe, oldest first")
    event.notifyObservers(6)
    #expect(heard == [3, 4, 5, 6])
    token.dispose()
  }

  @Test("fewer values than n: all of them; replay: 0 is an ordinary event; a negative n is taken as 0")
  func boundaries() {
    let short = ObservableEvent<Int>(replay: 3)
    short.notifyObservers(1)
    var heard: [Int] = []
    let a = short.observe { heard.append($0) }
    #expect(heard == [1])

    for count in [0, -1, Int.min] {
      let plain = ObservableEvent<Int>(replay: count)
      plain.notifyObservers(1)
      var none: [Int] = []
      let b = plain.observe { none.append($0) }
      #expect(none.isEmpty, "replay: \(count) replays nothing")
      plain.notifyObservers(2)
      #expect(none == [2])
      b.dispose()
    }
    a.dispose()
  }

  @Test("every form of observe replays: owner-bound, operators, the shared family's isolated handlers")
  func everyForm() async {
    final class Owner {}
    let event = ObservableEvent<Int>(replay: 2)
    event.notifyObservers(1)
    event.notifyObservers(2)
    let owner = Owner()
    var owned: [Int] = []
    event.observe(with: owner) { _, value in owned.append(value) }
    #expect(owned == [1, 2])
    var mapped: [Int] = []
    let m = event.map { $0 * 10 }.observe { mapped.append($0) }
    #expect(mapped == [10, 20])
    m.dispose()

    let shared = SharedEvent<Int>(replay: 2)
    shared.notifyObservers(1)
    shared.notifyObservers(2)
    let log = ValueLog<Int>()
    let n = shared.observeNonisolated(log.handler)
    #expect(log.values == [1, 2])
    shared.notifyObservers(3)
    #expect(log.values == [1, 2, 3])
    n.dispose()
    _ = owner
  }

  @Test("a handler that disposes during its replay hears no more of it (take(2) on a replay of 3)")
  func disposeDuringReplay() {
    let event = ObservableEvent<Int>(replay: 3)
    for value in 1...3 { event.notifyObservers(value) }
    var heard: [Int] = []
    let token = event.take(2).observe { heard.append($0) }
    #expect(heard == [1, 2])
    #expect(event.observerCount == 0)
    event.notifyObservers(4)
    #expect(heard == [1, 2])
    token.dispose()
  }

  @Test("a notification made by a handler during its replay comes after the replay, and is recorded once")
  func reentrantNotificationDuringReplay() {
    let event = ObservableEvent<Int>(replay: 3)
    event.notifyObservers(1)
    event.notifyObservers(2)
    var heard: [Int] = []
    let token = event.observe { value in
      heard.append(value)
      if value == 1 { event.notifyObservers(100) }
    }
    #expect(heard == [1, 2, 100])
    var late: [Int] = []
    let lateToken = event.observe { late.append($0) }
    #expect(late == [1, 2, 100], "the queued value is in the replay once")
    token.dispose()
    lateToken.dispose()
  }

  @Test("evicted and replayed values are released: the replay holds only the last n")
  func releasesEvicted() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Tracked>(replay: 2)
    for _ in 0..<5 { event.notifyObservers(tracker.make()) }
    #expect(tracker.liveCount == 2)
    _ = event
  }

  @Test("shared: concurrent notifications while observers register: each observer hears an in-order run with no gap and no duplicate")
  func sharedConcurrent() {
    let event = SharedEvent<Int>(replay: 4)
    let counter = Guarded(0)
    let logs = Guarded<[ValueLog<Int>]>([])
    let tokens = Guarded<[any Disposable]>([])
    race(threads: 4) { index in
      if index < 2 {
        for _ in 0..<2_000 {
          // One counter for both notifiers, taken and notified under one lock, so that the
          // values are notified in increasing order.
          counter.withLock { value in
            value += 1
            event.notifyObservers(value)
          }
        }
      } else {
        for _ in 0..<50 {
          let log = ValueLog<Int>()
          let token = event.observeNonisolated(log.handler)
          logs.withLock { $0.append(log) }
          tokens.withLock { $0.append(token) }
        }
      }
    }
    let total = counter.value
    for log in logs.value {
      let values = log.values
      guard let first = values.first else {
        Issue.record("an observer registered before the last notification heard nothing")
        continue
      }
      #expect(values == Array(first...total), "a gap, a duplicate or a value out of order: \(values.prefix(12))")
    }
    for token in tokens.value { token.dispose() }
  }
}
