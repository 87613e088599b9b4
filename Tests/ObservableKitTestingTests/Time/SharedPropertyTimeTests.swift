import ObservableKit
import ObservableKitTesting
import Testing

@MainActor
@Suite("Time operators on a SharedProperty return a SharedReadOnlyProperty")
struct SharedPropertyTimeTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func sharedPropertyDebounceHoldsTheSettledValue() async {
    let clock = ManualClock()
    let text = SharedProperty("")
    let settled: SharedReadOnlyProperty<String> = text.debounce(for: .milliseconds(300), clock: clock)
    let recorder = settled.record()
    text.value = "a"
    text.value = "ab"
    #expect(settled.value == "")
    await clock.advance(by: .milliseconds(300))
    #expect(settled.value == "ab")
    #expect(recorder.values == ["", "ab"])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func sharedPropertyThrottleAndDelay() async {
    let clock = ManualClock()
    let level = SharedProperty(0)
    let throttled: SharedReadOnlyProperty<Int> = level.throttle(for: .seconds(1), clock: clock, latest: true)
    let delayed: SharedReadOnlyProperty<Int> = level.delay(for: .seconds(1), clock: clock)
    level.value = 1
    level.value = 2
    #expect(throttled.value == 1)
    #expect(delayed.value == 0)
    await clock.advance(by: .seconds(1))
    #expect(throttled.value == 2)
    #expect(delayed.value == 2)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func theInitialValueIsTheOneReplayedToTheFeed() async {
    let clock = ManualClock()
    let level = SharedProperty(5)
    let delayed = level.delay(for: .seconds(1), clock: clock)
    // The replayed value is the result's value at once; it is not delayed.
    #expect(delayed.value == 5)
    #expect(clock.pendingCount == 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aSharedPropertyResultReleasesItsFeedWithItsLastHolder() async {
    let clock = ManualClock()
    let level = SharedProperty(0)
    var settled: SharedReadOnlyProperty<Int>? = level.debounce(for: .seconds(1), clock: clock)
    #expect(level.isObserved)
    let token = settled!.observeNonisolated { _ in }
    settled = nil
    #expect(level.isObserved)  // the subscription keeps the feed
    token.dispose()
    #expect(!level.isObserved)
  }
}
