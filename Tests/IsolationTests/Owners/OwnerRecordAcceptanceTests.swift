import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: owners keep nothing alive
// that they should not.

/// A long-lived owner, as a view controller or an app model is.
final class LongLivedOwner: Sendable {}

/// A value whose release a test can see.
private final class Payload: Sendable {
  let tracked: Tracked
  init(_ tracked: Tracked) { self.tracked = tracked }
}

@Suite("QA acceptance: owner records")
struct QAOwnerRecordAcceptanceTests {
  @Test func disposedOwnerBoundObservationReleasesThePropertysValue() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    var property: Property<Payload>? = Property(Payload(tracker.make()))
    property!.observe(with: owner) { _, value in value.tracked.touch() }.dispose()
    property = nil
    #expect(tracker.liveCount == 0, "the owner keeps the dead property's value alive")
    withExtendedLifetime(owner) {}
  }

  @Test func unsubscribedOwnerReleasesThePropertysValue() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    var property: Property<Payload>? = Property(Payload(tracker.make()))
    property!.subscribe(owner) { _, value, _ in value.tracked.touch() }
    property!.unsubscribe(owner)
    property = nil
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(owner) {}
  }

  @Test func droppedPropertyAloneReleasesItsValue() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    var property: Property<Payload>? = Property(Payload(tracker.make()))
    property!.observe(with: owner) { _, value in value.tracked.touch() }
    property!.subscribe(owner) { _, value, _ in value.tracked.touch() }
    property = nil
    #expect(tracker.liveCount == 0, "an owner outliving the property keeps its value")
    withExtendedLifetime(owner) {}
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func sharedPropertyOwnerRecordsReleaseTheValue() async {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    var property: SharedProperty<Payload>? = SharedProperty(Payload(tracker.make()))
    property!.observe(with: owner) { _, value in value.tracked.touch() }
    property!.subscribe(owner) { _, value, _ in value.tracked.touch() }
    property!.unsubscribe(owner)
    property = nil
    // Before the 26 releases the replay waits in a task, which holds the value until it
    // runs and finds the subscription ended; a watchdog bounds the wait.
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(10))
    while tracker.liveCount > 0 && clock.now < deadline { await Task.yield() }
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(owner) {}
  }

  @Test func manySubscriptionsOfOneOwnerEndedReleaseEverything() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    for _ in 0..<100 {
      let property = Property(Payload(tracker.make()))
      property.observe(with: owner) { _, _ in }.dispose()
    }
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(owner) {}
  }
}
