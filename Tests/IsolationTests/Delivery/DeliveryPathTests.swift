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

  @Test(
    "Contract: before the 26 releases, a shared owner-bound main-actor handler is enqueued and ends with its owner",
    .enabled(if: !DeliveryPath.usesImmediateTasks, DeliveryPath.before26Only)
  )
  func sharedOwnerBoundBefore26() async {
    let hub = SharedEventHub()
    let message = HubMessage<Int>("delivery.owner")
    var model: Recorder? = Recorder()
    hub.observe(message, with: model!) { model, points in model.values.append(points) }
    hub.post(message, 3)
    #expect(model?.values == [], "enqueued to the main actor")
    await waitUntil { model?.values == [3] }
    weak let released = model
    model = nil
    #expect(released == nil, "nothing waits, so nothing keeps the owner")
    hub.post(message, 4)
    await waitUntil { hub.observerCount(of: message) == 0 }
  }
}
