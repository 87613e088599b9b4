import ObservableKit
import ObservableKitTesting
import TestSupport
import Testing

@MainActor
@Suite("Time operators on the main actor, driven by ManualClock")
struct TimeOperatorTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func debounceDeliversTheLastValueOfABurst() async {
    let clock = ManualClock()
    let query = ObservableEvent<String>()
    let searches = query.debounce(for: .milliseconds(300), clock: clock).record()
    query.notifyObservers("s")
    await clock.advance(by: .milliseconds(100))
    query.notifyObservers("sw")
    await clock.advance(by: .milliseconds(299))
    #expect(searches.values == [])
    await clock.advance(by: .milliseconds(1))
    #expect(searches.values == ["sw"])
    await clock.advance(by: .seconds(10))
    #expect(searches.values == ["sw"])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func debounceTakesTheDeadlineWhenTheValueArrives() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    let recorder = event.debounce(for: .seconds(1), clock: clock).record()
    await clock.advance(by: .milliseconds(500))
    event.notifyObservers(1)  // deadline 1.5 s, taken now, before any task runs
    await clock.advance(to: .init(offset: .milliseconds(1499)))
    #expect(recorder.values == [])
    await clock.advance(to: .init(offset: .milliseconds(1500)))
    #expect(recorder.values == [1])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func debounceHandlerRunsOnTheMainActor() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    var heard: [Int] = []  // main-actor state, changed from a plain handler
    let token = event.debounce(for: .seconds(1), clock: clock).observe { value in
      MainActor.preconditionIsolated()
      heard.append(value)
    }
    event.notifyObservers(7)
    await clock.advance(by: .seconds(1))
    #expect(heard == [7])
    token.dispose()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func throttleLatestSendsTheFirstAtOnceThenTheLatestOfEachInterval() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    let recorder = event.throttle(for: .seconds(1), clock: clock, latest: true).record()
    event.notifyObservers(1)
    #expect(recorder.values == [1])
    event.notifyObservers(2)
    event.notifyObservers(3)
    await clock.advance(by: .milliseconds(999))
    #expect(recorder.values == [1])
    await clock.advance(by: .milliseconds(1))
    #expect(recorder.values == [1, 3])
    event.notifyObservers(4)  // inside the interval that 3 opened at 1 s
    await clock.advance(by: .seconds(1))
    #expect(recorder.values == [1, 3, 4])
    await clock.advance(by: .seconds(1))  // an interval with nothing: it closes
    event.notifyObservers(5)
    #expect(recorder.values == [1, 3, 4, 5])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func throttleFirstKeepsTheFirstValueOfEachInterval() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    let recorder = event.throttle(for: .seconds(1), clock: clock, latest: false).record()
    event.notifyObservers(1)
    event.notifyObservers(2)
    event.notifyObservers(3)
    await clock.advance(by: .seconds(1))
    #expect(recorder.values == [1, 2])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func throttleIntervalsFollowEachOtherExactly() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    let recorder = event.throttle(for: .seconds(1), clock: clock, latest: true).record()
    event.notifyObservers(1)
    event.notifyObservers(2)
    // One advance over three intervals: 2 goes at 1 s and opens [1 s, 2 s); 3 comes in it.
    await clock.advance(by: .milliseconds(1500))
    event.notifyObservers(3)
    await clock.advance(by: .milliseconds(500))
    #expect(recorder.values == [1, 2, 3])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func delayKeepsOrderAndSpacing() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    let recorder = event.delay(for: .seconds(2), clock: clock).record()
    event.notifyObservers(1)
    await clock.advance(by: .seconds(1))
    event.notifyObservers(2)
    await clock.advance(by: .milliseconds(1999))
    #expect(recorder.values == [1])
    await clock.advance(by: .milliseconds(1))
    #expect(recorder.values == [1, 2])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func advanceFiresTimersOfSeveralSubscriptionsInDeadlineOrder() async {
    let clock = ManualClock()
    let event = ObservableEvent<Int>()
    var order: [String] = []
    let slow = event.delay(for: .seconds(3), clock: clock).observe { order.append("slow \($0)") }
    let fast = event.debounce(for: .seconds(1), clock: clock).observe { order.append("fast \($0)") }
    let middle = event.delay(for: .seconds(2), clock: clock).observe { order.append("middle \($0)") }
    event.notifyObservers(1)
    await clock.advance(by: .seconds(5))
    #expect(order == ["fast 1", "middle 1", "slow 1"])
    for token in [slow, fast, middle] { token.dispose() }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func disposeCancelsTheTimerAndReleasesTheChain() async {
    let clock = ManualClock()
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    var heard: [Int] = []
    let token: any Disposable
    do {
      let captured = tracker.make()
      token = event.debounce(for: .seconds(1), clock: clock).observe { value in
        captured.touch()
        heard.append(value)
      }
    }
    event.notifyObservers(1)
    #expect(clock.pendingCount == 1)
    token.dispose()
    #expect(clock.pendingCount == 0)
    #expect(tracker.liveCount == 0)
    #expect(!event.isObserved)
    await clock.advance(by: .seconds(2))
    #expect(heard == [])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aWaitingValueIsDeliveredAfterTheSourceGoes() async {
    let clock = ManualClock()
    var event: ObservableEvent<Int>? = ObservableEvent<Int>()
    let recorder = event!.debounce(for: .seconds(1), clock: clock).record()
    event!.notifyObservers(1)
    event = nil
    await clock.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    #expect(clock.pendingCount == 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func propertyDebounceHoldsTheSettledValue() async {
    let clock = ManualClock()
    let text = Property("")
    let settled = text.debounce(for: .milliseconds(300), clock: clock)
    let recorder = settled.record()
    text.value = "a"
    text.value = "ab"
    #expect(settled.value == "")
    await clock.advance(by: .milliseconds(300))
    #expect(settled.value == "ab")
    #expect(recorder.values == ["", "ab"])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func propertyThrottleAndDelay() async {
    let clock = ManualClock()
    let level = Property(0)
    let throttled = level.throttle(for: .seconds(1), clock: clock, latest: true)
    let delayed = level.delay(for: .seconds(1), clock: clock)
    level.value = 1
    level.value = 2
    #expect(throttled.value == 1)
    #expect(delayed.value == 0)
    await clock.advance(by: .seconds(1))
    #expect(throttled.value == 2)
    #expect(delayed.value == 2)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aPropertyResultReleasesItsFeedWithItsLastHolder() async {
    let clock = ManualClock()
    let level = Property(0)
    var settled: ReadOnlyProperty<Int>? = level.debounce(for: .seconds(1), clock: clock)
    #expect(level.isObserved)
    let token = settled!.observe { _ in }
    settled = nil
    #expect(level.isObserved)  // the subscription keeps the feed
    token.dispose()
    #expect(!level.isObserved)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func sharedFamilyDeliversOnTheCapturedActor() async {
    let clock = ManualClock()
    let event = SharedEvent<Int>()
    let recorder = event.debounce(for: .seconds(1), clock: clock).record()
    var heard: [Int] = []
    let token = event.throttle(for: .seconds(1), clock: clock, latest: true).observe { heard.append($0) }
    event.notifyObservers(1)
    event.notifyObservers(2)
    await clock.advance(by: .seconds(1))
    #expect(recorder.values == [2])
    #expect(heard == [1, 2])
    let delayed = event.delay(for: .seconds(1), clock: clock).record()
    event.notifyObservers(3)
    await clock.advance(by: .seconds(1))
    #expect(delayed.values == [3])
    token.dispose()
  }
}
