import ObservableKit
import Testing
import TestSupport

/// The delivery rules that differ before and after the 26 releases, pinned on the path this
/// process takes (`DeliveryPath`). CI runs this target twice: as it comes, and with
/// `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1`, which makes a debug build take the path of Apple
/// platforms before the 26 releases on any OS. Part of the Contracts section "Platforms".
@Suite("Delivery path")
@MainActor
struct DeliveryPathTests {
  @Test("Contract: observe(on: MainActor.shared) runs at once on the main actor on every path: replay, sets, both families, both hubs")
  func mainActorFormIsSynchronousOnEveryPath() {
    let recorder = Recorder()
    let score = Property(1)
    let shared = SharedProperty(10)
    let event = SharedEvent<Int>()
    let hub = EventHub()
    let sharedHub = SharedEventHub()
    let message = HubMessage<Int>("delivery.path")
    let tokens = [
      score.observe(on: MainActor.shared) { recorder.values.append($0) },
      shared.observe(on: MainActor.shared) { recorder.values.append($0) },
      event.observe(on: MainActor.shared) { recorder.values.append($0) },
      hub.observe(message, on: MainActor.shared) { recorder.values.append($0) },
      sharedHub.observe(message, on: MainActor.shared) { recorder.values.append($0) },
    ]
    #expect(recorder.values == [1, 10], "both replays ran before observe returned")
    score.value = 2
    shared.value = 20
    event.notifyObservers(30)
    hub.post(message, 40)
    sharedHub.post(message, 50)
    #expect(recorder.values == [1, 10, 2, 20, 30, 40, 50], "each ran before its set or post returned")
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: a shared observe handler registered on the main actor runs at once on every path: replay, sets, observeChanges")
  func sharedMainActorHandlerIsSynchronousOnEveryPath() {
    let recorder = Recorder()
    let shared = SharedProperty(1)
    let tokens = [
      shared.observe { recorder.values.append($0) },
      shared.observeChanges { recorder.values.append($0 * 10) },
    ]
    #expect(recorder.values == [1], "the replay ran before observe returned")
    shared.value = 2
    #expect(recorder.values == [1, 2, 20], "both ran before the set returned")
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: a shared nonisolated observe handler runs on the notifying thread on every path, one call at a time, in order")
  nonisolated func sharedNonisolatedHandlerIsSynchronousOnEveryPath() {
    let event = SharedEvent<Int>()
    let log = ValueLog<Int>()
    let inside = Guarded(0)
    let overlapped = Guarded(false)
    let token = event.observe { value in
      if inside.withLock({ $0 += 1; return $0 }) > 1 { overlapped.value = true }
      log.record(value)
      inside.withLock { $0 -= 1 }
    }
    race(threads: 2) { thread in
      for value in 0..<200 { event.notifyObservers(thread * 1_000 + value) }
    }
    #expect(log.count == 400, "every value, once, before the notifications returned")
    for thread in 0..<2 {
      let mine = log.values.filter { $0 / 1_000 == thread }
      #expect(mine == mine.sorted(), "the values of one notifying thread keep their order")
    }
    #expect(!overlapped.value, "calls never overlap")
    token.dispose()
  }

  @Test("Contract: a shared owner-bound main-actor handler runs at once on the main actor on every path, and ends with its owner")
  func sharedOwnerBoundMainActorIsSynchronousOnEveryPath() {
    let hub = SharedEventHub()
    let message = HubMessage<Int>("delivery.owner")
    let event = SharedEvent<Int>()
    let property = SharedProperty(1)
    var model: Recorder? = Recorder()
    hub.observe(message, with: model!) { model, points in model.values.append(points) }
    event.observe(with: model!) { model, value in model.values.append(value * 10) }
    property.observe(with: model!) { model, value in model.values.append(value * 100) }
    property.subscribe(model!) { model, new, old in model.values.append(new * 1_000 + old) }
    #expect(model?.values == [100], "the replay ran before observe(with:) returned")
    hub.post(message, 3)
    event.notifyObservers(4)
    property.value = 5
    #expect(model?.values == [100, 3, 40, 500, 5_001], "each ran before its post, notification or set returned")
    weak let released = model
    model = nil
    #expect(released == nil, "nothing waits, so nothing keeps the owner")
    hub.post(message, 6)
    event.notifyObservers(7)
    property.value = 8
    #expect(hub.observerCount(of: message) == 0)
    #expect(event.observerCount == 0)
    #expect(property.observerCount == 0)
  }

  @Test("Contract: a shared owner-bound nonisolated handler runs on the notifying thread on every path, one call at a time, in order")
  nonisolated func sharedOwnerBoundNonisolatedIsSynchronousOnEveryPath() {
    final class Owner: Sendable {
      let log = ValueLog<Int>()
      // One count of calls in progress per subscription: only one subscription's calls must
      // not overlap.
      let inside = [Guarded(0), Guarded(0)]
      let overlapped = Guarded(false)
      func heard(_ value: Int, subscription: Int) {
        if inside[subscription].withLock({ $0 += 1; return $0 }) > 1 { overlapped.value = true }
        log.record(value)
        inside[subscription].withLock { $0 -= 1 }
      }
    }
    let event = SharedEvent<Int>()
    let property = SharedProperty(0)
    let owner = Owner()
    event.observe(with: owner) { owner, value in owner.heard(value, subscription: 0) }
    let changes = property.subscribe(owner) { owner, new, _ in owner.heard(new + 100_000, subscription: 1) }
    #expect(owner.log.values == [], "subscribe does not replay")
    race(threads: 2) { thread in
      for value in 0..<200 {
        event.notifyObservers(thread * 1_000 + value)
        if thread == 0 { property.value = value + 1 }
      }
    }
    let values = owner.log.values
    #expect(values.count == 600, "every value, once, before the notifications returned")
    for thread in 0..<2 {
      let mine = values.filter { $0 < 100_000 && $0 / 1_000 == thread }
      #expect(mine == mine.sorted(), "the values of one notifying thread keep their order")
    }
    #expect(values.filter { $0 >= 100_000 } == (1...200).map { $0 + 100_000 }, "every set, in order")
    #expect(!owner.overlapped.value, "calls never overlap")
    changes.dispose()
  }
}
