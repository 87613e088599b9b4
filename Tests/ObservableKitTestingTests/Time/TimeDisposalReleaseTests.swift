import ObservableKit
import ObservableKitTesting
import TestSupport
import Testing

/// Disposing a time operator's subscription releases the values it holds (a debounce's
/// waiting value, a throttle's, a delay's queue) before `dispose()` returns, in both
/// families: checked at once, on the main actor, while the timer's task still waits for it.
@MainActor
@Suite("Time operators: disposing releases the values a subscription holds")
struct TimeDisposalReleaseTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test("confined family: the waiting values are released before dispose() returns", arguments: TimeRuleKind.allCases)
  func confinedDisposeReleasesHeldValues(kind: TimeRuleKind) async {
    let clock = ManualClock()
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Tracked>()
    let timed: ReadOnlyEvent<Tracked> =
      switch kind {
      case .debounce: event.debounce(for: .seconds(1), clock: clock)
      case .throttleLatest: event.throttle(for: .seconds(1), clock: clock, latest: true)
      case .throttleFirst: event.throttle(for: .seconds(1), clock: clock, latest: false)
      case .delay: event.delay(for: .seconds(1), clock: clock)
      }
    let token = timed.observe { _ in }
    // A throttle delivers the first at once and holds the next; the others hold both.
    event.notifyObservers(tracker.make())
    event.notifyObservers(tracker.make())
    #expect(tracker.liveCount >= 1, "\(kind) holds nothing to release")
    token.dispose()
    #expect(tracker.liveCount == 0, "\(kind): a held value outlived dispose()")
    await clock.advance(by: .seconds(2))
    #expect(tracker.liveCount == 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test("shared family: the waiting values are released before dispose() returns", arguments: TimeRuleKind.allCases)
  func sharedDisposeReleasesHeldValues(kind: TimeRuleKind) async {
    let clock = ManualClock()
    let tracker = LifetimeTracker()
    let event = SharedEvent<Tracked>()
    let timed: SharedReadOnlyEvent<Tracked> =
      switch kind {
      case .debounce: event.debounce(for: .seconds(1), clock: clock)
      case .throttleLatest: event.throttle(for: .seconds(1), clock: clock, latest: true)
      case .throttleFirst: event.throttle(for: .seconds(1), clock: clock, latest: false)
      case .delay: event.delay(for: .seconds(1), clock: clock)
      }
    let token = timed.observeNonisolated { _ in }
    event.notifyObservers(tracker.make())
    event.notifyObservers(tracker.make())
    #expect(tracker.liveCount >= 1, "\(kind) holds nothing to release")
    token.dispose()
    #expect(tracker.liveCount == 0, "\(kind): a held value outlived dispose()")
    await clock.advance(by: .seconds(2))
    #expect(tracker.liveCount == 0)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test("disposing from another thread releases the confined family's held values there, before dispose() returns")
  func confinedDisposeFromAnotherThread() async {
    let clock = ManualClock()
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Tracked>()
    let token = event.debounce(for: .seconds(1), clock: clock).observe { _ in }
    event.notifyObservers(tracker.make())
    let liveAfterDispose = await Task.detached {
      token.dispose()
      return tracker.liveCount
    }.value
    #expect(liveAfterDispose == 0)
  }
}
