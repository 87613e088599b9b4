import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// A long-lived owner, as a view controller or an app model is.
private final class LongLivedOwner: Sendable {}

/// How a test ends an owner-bound registration before it drops the source.
enum RegistrationEnd: String, CaseIterable, Sendable {
  case dispose, unsubscribe, dropSource
}

/// What owners hold for their registrations (OwnerLifetime): one small record per owner,
/// nothing of a source once its registration has ended. Runs on every platform; only how the
/// owner's death is heard differs. Part of the Contracts section "Platforms".
@Suite("Owner records")
struct OwnerRecordTests {
  @Test(
    "Contract: once a property's owner-bound registration ends, the long-lived owner keeps nothing of it alive",
    arguments: RegistrationEnd.allCases
  )
  func propertyReleasedWhileOwnerLives(end: RegistrationEnd) {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    do {
      let property = Property(tracker.make())
      let captured = tracker.make()
      let observed = property.observe(with: owner) { _, _ in captured.touch() }
      let subscribed = property.subscribe(owner) { _, _ in captured.touch() }
      #expect(tracker.liveCount == 2)
      switch end {
      case .dispose:
        observed.dispose()
        subscribed.dispose()
      case .unsubscribe:
        property.unsubscribe(owner)
      case .dropSource:
        break
      }
    }
    #expect(tracker.liveCount == 0, "the value, the handlers and the storage are gone; the owner lives")
    withExtendedLifetime(owner) {}
  }

  @Test(
    "Contract: once a shared property's owner-bound registration ends, the long-lived owner keeps nothing of it alive",
    arguments: RegistrationEnd.allCases
  )
  func sharedPropertyReleasedWhileOwnerLives(end: RegistrationEnd) async {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    do {
      let property = SharedProperty(tracker.make())
      let captured = tracker.make()
      let observed = property.observe(with: owner) { _, _ in captured.touch() }
      let subscribed = property.subscribe(owner) { _, _, _ in captured.touch() }
      switch end {
      case .dispose:
        observed.dispose()
        subscribed.dispose()
      case .unsubscribe:
        property.unsubscribe(owner)
        observed.dispose()  // unsubscribe ends the subscribe registrations only
      case .dropSource:
        break
      }
    }
    // Before the 26 releases the replay is enqueued: it holds the value until it has run.
    var turns = 0
    while tracker.liveCount > 0, !DeliveryPath.usesImmediateTasks, turns < 100_000 {
      await Task.yield()
      turns += 1
    }
    #expect(tracker.liveCount == 0)
    withExtendedLifetime(owner) {}
  }

  @Test("Contract: once an event's owner-bound registration ends, its handler is released while the owner lives")
  func eventReleasedWhileOwnerLives() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    let event = ObservableEvent<Int>()
    do {
      let captured = tracker.make()
      event.observe(with: owner) { _, _ in captured.touch() }.dispose()
    }
    #expect(tracker.liveCount == 0)
    do {
      let dropped = ObservableEvent<Int>()
      let captured = tracker.make()
      dropped.observe(with: owner) { _, _ in captured.touch() }
    }
    #expect(tracker.liveCount == 0, "the event went, and with it the handler")
    withExtendedLifetime(owner) {}
  }

  @Test("Contract: a derived source's owner-bound registration keeps no dropped source alive while the owner lives")
  func derivedSourceReleasedWhileOwnerLives() {
    let tracker = LifetimeTracker()
    let owner = LongLivedOwner()
    do {
      let property = Property(tracker.make())
      let captured = tracker.make()
      property.map { $0 }.observe(with: owner) { _, _ in captured.touch() }
      let event = ObservableEvent<Tracked>()
      event.filter { _ in true }.observe(with: owner) { _, _ in captured.touch() }
    }
    #expect(tracker.liveCount == 0, "the property, its value and the handlers are gone; the owner lives")
    withExtendedLifetime(owner) {}
  }

  @Test("Contract: an owner has one record, whatever its number of registrations; ended ones are pruned")
  func oneRecordPerOwner() {
    let owner = LongLivedOwner()
    let property = Property(0)
    let record = OwnerLifetime.record(for: owner)
    for _ in 0..<1_000 {
      property.observe(with: owner) { _, _ in }.dispose()
    }
    #expect(OwnerLifetime.record(for: owner) === record, "the same record every time")
    #expect(record.count <= 8, "ended registrations do not pile up: \(record.count)")
    let live = (0..<100).map { _ in property.observe(with: owner) { _, _ in } }
    #expect(record.count >= 100 && record.count <= 200, "at most about twice the live ones: \(record.count)")
    live.forEach { $0.dispose() }
    #expect(!property.isObserved)
  }

  @Test("Contract: one owner's registrations made and ended from 4 threads at once: none is lost, the record stays small")
  func concurrentRegistrationsOfOneOwner() {
    let owner = LongLivedOwner()
    let event = SharedEvent<Int>()
    let kept = Guarded<[any Disposable]>([])
    race(threads: 4) { thread in
      for index in 0..<500 {
        let token = event.observe(with: owner) { _, _ in }
        if index % 10 == 0 { kept.withLock { $0.append(token) } } else { token.dispose() }
      }
    }
    #expect(event.observerCount == 200)
    let record = OwnerLifetime.record(for: owner)
    // While threads race, a prune's threshold follows the list as it was at that prune, so the
    // bound is checked once the next prune has run on one thread: the record then holds the
    // live ones and fewer than as many ended ones again.
    var previous = record.count
    for _ in 0..<10_000 {
      event.observe(with: owner) { _, _ in }.dispose()
      let count = record.count
      if count < previous { break }
      previous = count
    }
    #expect(record.count >= 200 && record.count <= 400 + 8, "about twice the live ones at most: \(record.count)")
    record.endAll()
    #expect(!event.isObserved, "the record held every live registration")
    withExtendedLifetime(kept) {}
  }

  @Test("Contract: when an owner's record goes (its owner's death heard), the registrations still running end")
  func recordEndsItsRegistrations() {
    let tracker = LifetimeTracker()
    let property = Property(0)
    let event = ObservableEvent<Int>()
    let shared = SharedEvent<Int>()
    let owner = LongLivedOwner()
    do {
      let captured = tracker.make()
      // A record of its own, standing for the owner's: dropping it is what the owner's death does.
      let record = OwnerRecord()
      let tokens = [
        property.observe { _ in captured.touch() },
        event.map { $0 }.observe(with: owner) { _, _ in captured.touch() },
        shared.observe(with: owner) { _, _ in captured.touch() },
      ]
      tokens.forEach { record.add(OwnedRegistration($0)) }
      #expect(property.isObserved && shared.isObserved)
    }
    #expect(!property.isObserved)
    #expect(tracker.liveCount == 0, "every handler was released with the record")
    withExtendedLifetime(owner) {}
  }

  #if !canImport(ObjectiveC)
  @Test("Contract: elsewhere than Apple platforms, a dead owner's record is found (a sweep of the table, or its address taken by a new owner) and ends its registrations")
  func deadOwnersAreSwept() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    do {
      let owner = LongLivedOwner()
      let captured = tracker.make()
      event.observe(with: owner) { _, _ in captured.touch() }
    }
    // Nothing has noticed yet (unless a test running beside this one swept the table).
    // Registering for enough new owners doubles the table, which sweeps it.
    let owners = (0..<(RecordTable.shared.count + 64)).map { _ in LongLivedOwner() }
    for owner in owners { event.observe(with: owner) { _, _ in }.dispose() }
    #expect(tracker.liveCount == 0, "the sweep ended the dead owner's registration")
    withExtendedLifetime(owners) {}
  }
  #endif
}
