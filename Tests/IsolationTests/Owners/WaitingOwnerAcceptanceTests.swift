import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: values that wait for the main
// actor hold their owners weakly.

/// A main-actor owner whose deinit a test can see.
@MainActor private final class ScreenOwner {
  var heard: [Int] = []
  let tracked: Tracked
  init(_ tracked: Tracked) { self.tracked = tracked }
}

/// Returns after the main queue ran everything enqueued before this call (main-actor jobs on
/// this platform go to the main queue in order).
@MainActor private func drainMainQueue() async {
  for _ in 0..<3 {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.main.async { done.resume() }
    }
  }
}

/// Runs `body` on another thread and blocks until it returned (the body never waits for the
/// main actor, so the caller may block).
private func qaOnAnotherThread(_ body: @escaping @Sendable () -> Void) {
  let done = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    body()
    done.signal()
  }
  done.wait()
}

@Suite("QA acceptance: waiting values hold owners weakly")
@MainActor
struct QAWaitingOwnerAcceptanceTests {
  @Test func sharedEventOwnerReleasedWhileValuesWaitIsNeverCalled() async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    var owner: ScreenOwner? = ScreenOwner(tracker.make())
    let calls = Guarded(0)
    event.observe(with: owner!) { owner, value in
      calls.withLock { $0 += 1 }
      owner.heard.append(value)
    }
    qaOnAnotherThread { for v in 1...5 { event.notifyObservers(v) } }
    owner = nil
    #expect(tracker.liveCount == 0, "a waiting value keeps the owner alive")
    await drainMainQueue()
    #expect(calls.withLock { $0 } == 0)
  }

  @Test func sharedHubOwnerReleasedWhileValuesWaitIsNeverCalled() async {
    let tracker = LifetimeTracker()
    let hub = SharedEventHub()
    let m = HubMessage<Int>("n")
    var owner: ScreenOwner? = ScreenOwner(tracker.make())
    let calls = Guarded(0)
    hub.observe(m, with: owner!) { owner, value in
      calls.withLock { $0 += 1 }
      owner.heard.append(value)
    }
    qaOnAnotherThread { for v in 1...5 { hub.post(m, v) } }
    owner = nil
    #expect(tracker.liveCount == 0)
    await drainMainQueue()
    #expect(calls.withLock { $0 } == 0)
  }

  @Test func sharedPropertySubscriberReleasedWhileValuesWaitIsNeverCalled() async {
    let tracker = LifetimeTracker()
    let property = SharedProperty(0)
    var owner: ScreenOwner? = ScreenOwner(tracker.make())
    let calls = Guarded(0)
    property.subscribe(owner!) { owner, value, _ in
      calls.withLock { $0 += 1 }
      owner.heard.append(value)
    }
    await drainMainQueue()
    let before = calls.withLock { $0 }
    qaOnAnotherThread { for v in 1...5 { property.value = v } }
    owner = nil
    #expect(tracker.liveCount == 0)
    await drainMainQueue()
    #expect(calls.withLock { $0 } == before)
  }
}
