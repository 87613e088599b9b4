import Dispatch
import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// The predicate that main-actor delivery asks before the 26 releases: where the main actor
/// runs, and only there. Part of the Contracts section "Platforms".
@Suite("Main actor, asked without the runtime")
struct MainActorNowTests {
  @Test("Contract: main-actor code, and a main-queue block on whatever thread drains it, count as the main actor")
  @MainActor
  func trueWhereTheMainActorRuns() async {
    #expect(MainActorNow.isCurrent, "a @MainActor test")
    let inBlock = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      DispatchQueue.main.async { continuation.resume(returning: MainActorNow.isCurrent) }
    }
    #expect(inBlock, "a block of the main queue")
    let targeting = DispatchQueue(label: "targets.main", target: .main)
    let inTargeting = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      targeting.async { continuation.resume(returning: MainActorNow.isCurrent) }
    }
    #expect(inTargeting, "a queue that targets the main queue runs as part of it")
  }

  @Test("Contract: another thread, a detached task and another queue do not count as the main actor")
  func falseElsewhere() async {
    let onThread = Guarded(true)
    withWatchdog("a plain thread") { onThread.value = MainActorNow.isCurrent }
    #expect(!onThread.value)
    let inTask = await Task.detached { MainActorNow.isCurrent }.value
    #expect(!inTask)
    let onQueue = DispatchQueue(label: "not.main").sync { MainActorNow.isCurrent }
    #expect(!onQueue, "a block of another queue, on a thread of the pool")
  }

  @Test("Contract: in a debug build the switch is OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1")
  func switchFollowsTheEnvironment() {
    #expect(
      MainActorNow.simulatesOSBefore26
        == (ProcessInfo.processInfo.environment["OBSERVABLEKIT_SIMULATE_OS_BEFORE_26"] == "1")
    )
  }
}
