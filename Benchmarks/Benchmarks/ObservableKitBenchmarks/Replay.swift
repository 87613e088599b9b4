// Scenario 16: replay. A replayed subscription (observe an event that replays its last 10
// values, hear them, dispose) and a notification of a replaying event, each beside a
// hand-written baseline: the locked closure array plus a ring buffer read under the same lock.

import Benchmark
import BenchmarkSupport
import ObservableKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The replay depth of scenario 16.
let replayDepth = 10

/// The baseline of a replaying event: handlers and a ring of the last `capacity` values in
/// one pthread-locked object; `add` appends the handler and copies the ring under the lock,
/// then calls the handler with the copy; `notify` records the value and snapshots the
/// handlers under the lock, then calls them. No tokens, no re-entrancy handling, and no
/// ordering of a replay against a concurrent notification.
final class BaselineReplayEvent<Value>: @unchecked Sendable {
  typealias Handler = @Sendable (Value) -> Void

  // Every stored property is touched only under `mutex`.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var handlers: ContiguousArray<Handler> = []
  private var ids: ContiguousArray<UInt64> = []
  private var nextID: UInt64 = 0
  private var ring: ContiguousArray<Value> = []
  private var oldest = 0
  private let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    ring.reserveCapacity(capacity)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inline(__always)
  private func withLock<R>(_ body: () -> R) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  func add(_ handler: @escaping Handler) -> UInt64 {
    let (id, backlog, start) = withLock { () -> (UInt64, ContiguousArray<Value>, Int) in
      let id = nextID
      nextID += 1
      ids.append(id)
      handlers.append(handler)
      return (id, ring, oldest)
    }
    for index in 0..<backlog.count {
      handler(backlog[(start + index) % backlog.count])
    }
    return id
  }

  func remove(_ id: UInt64) {
    withLock {
      guard let index = ids.firstIndex(of: id) else { return }
      ids.remove(at: index)
      handlers.remove(at: index)
    }
  }

  func notify(_ value: Value) {
    let snapshot = withLock { () -> ContiguousArray<Handler> in
      if ring.count < capacity {
        ring.append(value)
      } else {
        ring[oldest] = value
        oldest = oldest + 1 == capacity ? 0 : oldest + 1
      }
      return handlers
    }
    for handler in snapshot {
      handler(value)
    }
  }
}

func registerReplay() {
  let cycles = churnPerIteration
  // The replayed values are 0..<10, so each replayed subscription adds triangle(10).
  let expectedPerCycle = triangle(replayDepth)

  do {
    let scenario = "S22 replayed subscription replay 10"
    do {
      let state = Lazy { () -> (ObservableEvent<Int>, Sink) in
        let event = ObservableEvent<Int>(replay: replayDepth)
        for value in 0..<replayDepth { event.notifyObservers(value) }
        return (event, Sink())
      }
      register(scenario, units: cycles, .observableKit, closure: { _ in
        let (event, sink) = state.value
        sink.total = 0
        for _ in 0..<cycles {
          let token = event.observe(makeHandler(sink))
          token.dispose()
        }
        expect(sink, expectedPerCycle * cycles)
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (BaselineReplayEvent<Int>, Sink) in
        let event = BaselineReplayEvent<Int>(capacity: replayDepth)
        for value in 0..<replayDepth { event.notify(value) }
        return (event, Sink())
      }
      register(scenario, units: cycles, .baseline, closure: { _ in
        let (event, sink) = state.value
        sink.total = 0
        for _ in 0..<cycles {
          let id = event.add(makeHandler(sink))
          event.remove(id)
        }
        expect(sink, expectedPerCycle * cycles)
      }, teardown: state.reset)
    }
  }

  do {
    let scenario = "S22 replaying event notify 1 obs replay 10"
    let notifications = 10_000
    do {
      let state = Lazy { () -> (ObservableEvent<Int>, Sink, any Disposable) in
        let event = ObservableEvent<Int>(replay: replayDepth)
        let sink = Sink()
        return (event, sink, event.observe(makeHandler(sink)))
      }
      register(scenario, units: notifications, .observableKit, closure: { _ in
        let (event, sink, _) = state.value
        sink.total = 0
        for value in 0..<notifications { event.notifyObservers(value) }
        expect(sink, triangle(notifications))
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (BaselineReplayEvent<Int>, Sink) in
        let event = BaselineReplayEvent<Int>(capacity: replayDepth)
        let sink = Sink()
        _ = event.add(makeHandler(sink))
        return (event, sink)
      }
      register(scenario, units: notifications, .baseline, closure: { _ in
        let (event, sink) = state.value
        sink.total = 0
        for value in 0..<notifications { event.notify(value) }
        expect(sink, triangle(notifications))
      }, teardown: state.reset)
    }
  }
}
