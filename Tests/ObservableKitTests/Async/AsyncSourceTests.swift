import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// A sequence the test drives: each iteration gets a fresh stream, whose continuation the
/// feed keeps; it counts iterations and cancellations.
final class Feed: Sendable {
  struct State {
    var continuation: AsyncStream<Int>.Continuation?
    var iterations = 0
    var cancellations = 0
  }

  let state = Guarded(State())

  var sequence: FeedSequence { FeedSequence(feed: self) }
  var iterations: Int { state.value.iterations }
  var cancellations: Int { state.value.cancellations }
  var isIterating: Bool { state.value.continuation != nil }

  func send(_ value: Int) {
    _ = state.value.continuation?.yield(value)
  }

  func finish() {
    state.value.continuation?.finish()
  }

  struct FeedSequence: AsyncSequence, Sendable {
    typealias Element = Int
    let feed: Feed

    func makeAsyncIterator() -> AsyncStream<Int>.Iterator {
      var made: AsyncStream<Int>.Continuation!
      let stream = AsyncStream<Int> { made = $0 }
      let feed = feed
      made.onTermination = { reason in
        feed.state.withLock { state in
          state.continuation = nil
          if case .cancelled = reason { state.cancellations += 1 }
        }
      }
      feed.state.withLock { state in
        state.continuation = made
        state.iterations += 1
      }
      return stream.makeAsyncIterator()
    }
  }
}

/// Waits, yielding, until `condition` holds; a bounded wait that the caller's expectation
/// reports if it runs out. It runs on the caller's actor, so a condition that reads what a
/// main-actor handler writes reads it there, not from another thread.
func eventually(isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool) async -> Bool {
  for _ in 0..<200_000 {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

@Suite("SharedEvent from an async sequence")
struct AsyncSourceTests {
  @Test("start: .onFirstObserver iterates nothing for nobody; values reach every observer in order")
  func lazyStart() async {
    let feed = Feed()
    let quotes = SharedEvent(feed.sequence)
    await Task.yield()
    #expect(feed.iterations == 0, "nothing starts before the first observer")
    let a = ValueLog<Int>(), b = ValueLog<Int>()
    let ta = quotes.observeNonisolated(a.handler)
    let tb = quotes.observeNonisolated(b.handler)
    #expect(await eventually { feed.isIterating })
    #expect(feed.iterations == 1, "one iteration for both observers")
    for value in 1...5 { feed.send(value) }
    #expect(await eventually { a.count == 5 && b.count == 5 })
    #expect(a.values == [1, 2, 3, 4, 5] && b.values == [1, 2, 3, 4, 5])
    ta.dispose()
    tb.dispose()
  }

  @Test("stop: .afterLastObserver cancels the iteration when the last observer goes, and the next first observer starts again")
  func stopAndRestart() async {
    let feed = Feed()
    let lazy = SharedEvent(feed.sequence, start: .onFirstObserver, stop: .afterLastObserver)
    let first = ValueLog<Int>()
    let t1 = lazy.observeNonisolated(first.handler)
    let t2 = lazy.observeNonisolated { _ in }
    #expect(await eventually { feed.isIterating })
    t1.dispose()
    await Task.yield()
    #expect(feed.cancellations == 0, "one observer is left")
    t2.dispose()
    #expect(await eventually { feed.cancellations == 1 }, "the last observer went: cancelled")
    #expect(!lazy.isFinished, "a stop is not the end")
    let second = ValueLog<Int>()
    let t3 = lazy.observeNonisolated(second.handler)
    #expect(await eventually { feed.iterations == 2 && feed.isIterating })
    feed.send(7)
    #expect(await eventually { second.values == [7] })
    #expect(first.values.isEmpty)
    t3.dispose()
  }

  @Test("start: .immediately and stop: .never: iterates before any observer and goes on without one")
  func immediatelyNever() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence, replay: 1, start: .immediately, stop: .never)
    #expect(await eventually { feed.isIterating })
    feed.send(1)
    feed.send(2)
    #expect(await eventually {
      let probe = ValueLog<Int>()
      event.observeNonisolated(probe.handler).dispose()
      return probe.values == [2]
    }, "the replay holds the last value sent before anyone observed")
    let token = event.observeNonisolated { _ in }
    token.dispose()
    await Task.yield()
    #expect(feed.cancellations == 0 && feed.isIterating, "stop: .never")
  }

  @Test("the end: isFinished, onFinish hears .finished (also late), subscriptions end, nothing more is delivered")
  func end() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence, replay: 2)
    let log = ValueLog<Int>()
    let ends = Guarded<[String]>([])
    event.onFinish { end in ends.withLock { $0.append(end.error == nil ? "finished" : "failed") } }
    let token = event.observeNonisolated(log.handler)
    #expect(await eventually { feed.isIterating })
    feed.send(1)
    feed.finish()
    #expect(await eventually { event.isFinished })
    #expect(await eventually { ends.value == ["finished"] })
    #expect(log.values == [1], "the last value came before the end")
    #expect(event.observerCount == 0, "the end ends every subscription")
    #expect(token.isDisposed)
    let late = ValueLog<Int>()
    let lateToken = event.observeNonisolated(late.handler)
    #expect(lateToken.isDisposed && late.values.isEmpty, "no replay and no subscription after the end")
    event.notifyObservers(9)
    #expect(late.values.isEmpty && log.values == [1])
    let lateEnds = Guarded(0)
    event.onFinish { _ in lateEnds.withLock { $0 += 1 } }
    #expect(await eventually { lateEnds.value == 1 }, "a late onFinish hears the end at once")
    #expect(feed.iterations == 1, "nothing starts again after the end")
  }

  @Test("a throwing sequence: onError, then onFinish hears .failed")
  func throwing() async {
    struct Boom: Error {}
    var made: AsyncThrowingStream<Int, any Error>.Continuation!
    let stream = AsyncThrowingStream<Int, any Error> { made = $0 }
    let continuation = made!
    let errors = Guarded(0)
    let event = SharedEvent(stream, onError: { _ in errors.withLock { $0 += 1 } })
    let failed = Guarded(false)
    event.onFinish { end in if end.error is Boom { failed.value = true } }
    let log = ValueLog<Int>()
    let token = event.observeNonisolated(log.handler)
    continuation.yield(1)
    continuation.finish(throwing: Boom())
    #expect(await eventually { failed.value })
    #expect(errors.value == 1 && log.values == [1] && event.isFinished)
    token.dispose()
  }

  @Test("an event nobody keeps: its iteration is cancelled, and it is released")
  func release() async {
    let feed = Feed()
    weak var weakEvent: SharedEvent<Int>?
    do {
      let event = SharedEvent(feed.sequence, start: .immediately, stop: .never)
      weakEvent = event
      #expect(await eventually { feed.isIterating })
    }
    #expect(weakEvent == nil, "the iteration does not keep the event alive")
    #expect(await eventually { feed.cancellations == 1 })
  }

  @Test("values reach observers through the usual delivery: a main-actor handler runs on the main actor, in order")
  @MainActor
  func mainActorDelivery() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence)
    var heard: [Int] = []
    let token = event.observe { @MainActor value in
      MainActor.assertIsolated()
      heard.append(value)
    }
    #expect(await eventually { feed.isIterating })
    for value in 1...3 { feed.send(value) }
    #expect(await eventually { heard == [1, 2, 3] })
    token.dispose()
  }
}

@Suite("SharedEvent from an async sequence: its values")
struct AsyncSourceValuesTests {
  @Test("for await over the values of an event made from a sequence ends when the sequence ends, after its last value")
  func valuesFinish() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence)
    let loop = Task {
      var heard: [Int] = []
      for await value in event.values { heard.append(value) }
      return heard
    }
    #expect(await eventually { feed.isIterating })
    feed.send(1)
    feed.send(2)
    feed.finish()
    #expect(await loop.value == [1, 2])
    var late: [Int] = []
    for await value in event.values { late.append(value) }
    #expect(late.isEmpty, "a loop that starts after the end ends at once")
  }
}
