import ObservableKit
import ObservableKitTesting
import Testing

/// A model confined to its own actor, as server code writes it: the debounced handler runs
/// on that actor and changes its state with no hop written by the user.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
private actor Indexer {
  let changes = ObservableEvent<String>()
  private(set) var indexed: [String] = []
  private var token: (any Disposable)?

  func start(clock: ManualClock) {
    // The handler captures the isolated self, so it is isolated to this actor; stop()
    // breaks the cycle.
    token = changes.debounce(for: .seconds(1), clock: clock).observe { path in
      self.index(path)
    }
  }

  private func index(_ path: String) {
    preconditionIsolated()
    indexed.append(path)
  }

  func touch(_ path: String) {
    changes.notifyObservers(path)
  }

  func stop() {
    token?.dispose()
  }
}

/// A clock that only sleeps: the time operators then use their generic sleeping timer.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
private struct SleepOnlyClock: Clock {
  let base: ManualClock
  var now: ManualClock.Instant { base.now }
  var minimumResolution: Duration { .zero }
  func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

@Suite("Time operators: isolation and clocks")
struct TimeIsolationTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aConfinedOperatorRunsItsHandlerOnTheActorThatAppliedIt() async {
    let clock = ManualClock()
    let indexer = Indexer()
    await indexer.start(clock: clock)
    await indexer.touch("a")
    await indexer.touch("b")
    await clock.advance(by: .seconds(1))
    #expect(await indexer.indexed == ["b"])
    await indexer.stop()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aSharedOperatorTakesAnExplicitActor() async throws {
    let clock = ManualClock()
    let event = SharedEvent<Int>()
    let target = Indexer()
    // Nonisolated code passes the actor the deliveries run on, as Combine takes a scheduler.
    let debounced = event.debounce(for: .seconds(1), clock: clock, isolation: target)
    let recorder = debounced.record()
    event.notifyObservers(1)
    await clock.advance(by: .seconds(1))
    #expect(recorder.values == [1])
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theSleepingTimerSleepsAgainWhenTheDeadlineMoved() async throws {
    let manual = ManualClock()
    let event = ObservableEvent<Int>()
    let recorder = event.debounce(for: .seconds(1), clock: SleepOnlyClock(base: manual)).record()
    event.notifyObservers(1)
    await manual.advance(by: .milliseconds(500))
    event.notifyObservers(2)  // deadline 1.5 s
    await manual.advance(by: .milliseconds(500))
    #expect(recorder.values == [])
    await manual.advance(by: .milliseconds(500))
    try await recorder.waitForValues(count: 1)
    #expect(recorder.values == [2])
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func continuousClockByDefault() async throws {
    let event = ObservableEvent<Int>()
    let recorder = event.debounce(for: .milliseconds(10)).record()
    event.notifyObservers(1)
    event.notifyObservers(2)
    try await recorder.waitForValues(count: 1)
    #expect(recorder.values == [2])
  }
}

@Suite("Time operators: the shared family under concurrent notifications")
struct SharedTimeConcurrencyTests {
  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func concurrentValuesSettleToOneDebouncedValue() async {
    let clock = ManualClock()
    let event = SharedEvent<Int>()
    let debounced = event.debounce(for: .seconds(1), clock: clock).record()
    let throttled = event.throttle(for: .seconds(1), clock: clock, latest: true).record()
    await withTaskGroup(of: Void.self) { group in
      for thread in 0..<4 {
        group.addTask {
          for value in 0..<200 { event.notifyObservers(thread * 1_000 + value) }
        }
      }
    }
    #expect(debounced.values.isEmpty)
    #expect(throttled.values.count == 1)  // the interval's opening value, at once
    await clock.advance(by: .seconds(1))
    #expect(debounced.values.count == 1)
    #expect(throttled.values.count == 2)  // and the latest of the interval, at its end
    await clock.advance(by: .seconds(5))
    #expect(debounced.values.count == 1)
    #expect(throttled.values.count == 2)
  }
}
