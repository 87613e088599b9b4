import Dispatch
import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Delivery targets")
struct DeliveryTests {
  @Test("Contract: observe(on:) delivers asynchronously on the queue, in order, also on a concurrent queue")
  func queueDeliveryIsAsyncAndFIFO() {
    let event = ObservableEvent<Int>()
    let queue = DispatchQueue(label: "test", attributes: .concurrent)
    let heard = ValueLog<Int>()
    let done = DispatchSemaphore(value: 0)
    let notifyingThread = currentThreadID()
    let offThread = Guarded(true)
    let token = event.observe(on: queue) { value in
      if currentThreadID() == notifyingThread { offThread.value = false }
      heard.record(value)
      if value == 999 { done.signal() }
    }
    for value in 0..<1000 { event.notifyObservers(value) }
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(heard.values == Array(0..<1000))
    #expect(offThread.value)
    token.dispose()
  }

  @Test("Contract: once dispose returns, no queued delivery starts")
  func disposeStopsQueuedDeliveries() {
    let event = ObservableEvent<Int>()
    let queue = DispatchQueue(label: "test")
    let gate = DispatchSemaphore(value: 0)
    let heard = Tally()
    queue.async { gate.wait() }  // hold the queue while values are queued
    let token = event.observe(on: queue) { _ in heard.increment() }
    for value in 0..<10 { event.notifyObservers(value) }
    token.dispose()
    gate.signal()
    queue.sync {}
    #expect(heard.value == 0)
    #expect(token.isDisposed && !event.isObserved)
  }

  @Test("Window: a queue drain parked in the handler while another thread disposes; nothing that waits is delivered")
  func disposeWhileDrainParked() {
    let event = ObservableEvent<Int>()
    let queue = DispatchQueue(label: "test")
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let heard = ValueLog<Int>()
    let token = event.observe(on: queue) { value in
      heard.record(value)
      if value == 0 {
        entered.signal()
        release.wait()
      }
    }
    for value in 0..<10 { event.notifyObservers(value) }
    entered.wait()  // the drain is inside the handler, outside the lock, with 1...9 waiting
    withWatchdog("dispose while a drain is parked") { token.dispose() }
    release.signal()
    queue.sync {}
    #expect(heard.values == [0])
  }

  @Test("Window: a queue drain parked in the handler while its source deinitializes; what waits is delivered, then the handler is released")
  func sourceDeinitWhileDrainParked() {
    let tracker = LifetimeTracker()
    let queue = DispatchQueue(label: "test")
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let heard = ValueLog<Int>()
    var event: ObservableEvent<Int>? = ObservableEvent<Int>()
    let token = event!.observe(on: queue) { [tracked = tracker.make()] value in
      tracked.touch()
      heard.record(value)
      if value == 0 {
        entered.signal()
        release.wait()
      }
    }
    for value in 0..<5 { event!.notifyObservers(value) }
    entered.wait()  // the drain is inside the handler, outside the lock, with 1...4 waiting
    event = nil  // takes the mailbox's lock only briefly: the parked drain holds none
    #expect(!token.isDisposed, "values still wait")
    #expect(tracker.liveCount == 1, "the handler is kept for them")
    release.signal()
    queue.sync {}
    #expect(heard.values == [0, 1, 2, 3, 4])
    #expect(token.isDisposed)
    #expect(tracker.liveCount == 0, "then released")
  }

  @Test("Contract: disposing a queue or main-actor subscription releases its handler at once")
  func disposeReleasesHandler() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    let onQueue = Self.observe(event, on: DispatchQueue(label: "test"), capturing: tracker.make())
    let onMain = Self.observeOnMain(event, capturing: tracker.make())
    #expect(tracker.liveCount == 2)
    onQueue.dispose()
    onMain.dispose()
    #expect(tracker.liveCount == 0)
    #expect(!event.isObserved)
  }

  @Test("Contract: a source that deinitializes ends its queue, main-actor and isolated subscriptions and releases their handlers, though their tokens are kept")
  func sourceDeinitEndsDeliveredSubscriptions() {
    let tracker = LifetimeTracker()
    var tokens: [any Disposable] = []
    do {
      let event = ObservableEvent<Int>()
      let shared = SharedEvent<Int>()
      let tracked = tracker.make()
      tokens.append(Self.observe(event, on: DispatchQueue(label: "test"), capturing: tracker.make()))
      tokens.append(Self.observeOnMain(event, capturing: tracker.make()))
      tokens.append(shared.observe { _ in tracked.touch() })
      tokens.append(shared.observe(on: DispatchQueue(label: "test")) { _ in tracked.touch() })
      tokens.append(event.map { $0 + 1 }.observe(on: DispatchQueue(label: "test")) { _ in tracked.touch() })
      #expect(tracker.liveCount == 3)
      #expect(!tokens.contains { $0.isDisposed })
    }
    #expect(tracker.liveCount == 0)
    #expect(tokens.allSatisfy { $0.isDisposed })
  }

  @Test("Contract: values a queue delivery took in before its source deinitialized are still delivered, then the handler is released")
  func sourceDeinitDeliversWhatWaits() {
    let tracker = LifetimeTracker()
    let queue = DispatchQueue(label: "test")
    let gate = DispatchSemaphore(value: 0)
    let heard = ValueLog<Int>()
    queue.async { gate.wait() }  // hold the queue while values wait
    var token: (any Disposable)?
    do {
      let event = ObservableEvent<Int>()
      let tracked = tracker.make()
      token = event.observe(on: queue) { value in
        tracked.touch()
        heard.record(value)
      }
      for value in 0..<3 { event.notifyObservers(value) }
    }
    #expect(tracker.liveCount == 1)  // three values wait for the queue
    #expect(token?.isDisposed == false)
    gate.signal()
    queue.sync {}
    #expect(heard.values == [0, 1, 2])
    #expect(tracker.liveCount == 0)
    #expect(token?.isDisposed == true)
  }

  private static func observe(
    _ event: ObservableEvent<Int>, on queue: DispatchQueue, capturing tracked: Tracked
  ) -> any Disposable {
    event.observe(on: queue) { _ in tracked.touch() }
  }

  private static func observeOnMain(_ event: ObservableEvent<Int>, capturing tracked: Tracked) -> any Disposable {
    event.observe(on: MainActor.shared) { _ in tracked.touch() }
  }

  @Test("Contract: concurrent notifications delivered on a queue lose nothing (TSan)")
  func queueUnderContention() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let queue = DispatchQueue(label: "test")
    let total = Tally()
    let token = event.observe(on: queue) { total.increment(by: $0) }
    race(threads: 4) { _ in for _ in 0..<500 { event.notifyObservers(1) } }
    queue.sync {}
    // Every drain scheduled before the sync above has run; a last drain may still be
    // scheduled after it, so wait for the exact count.
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      while total.value < 2_000 { queue.sync {} }
      finished.signal()
    }
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(total.value == 2_000)
    token.dispose()
  }

  @Test("Contract: a @MainActor handler runs on the main actor, in order")
  @MainActor
  func mainActorDelivery() async {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    var heard: [Int] = []
    let token: any Disposable = await withCheckedContinuation { continuation in
      var token: (any Disposable)?
      token = event.observe(on: MainActor.shared) { value in
        MainActor.assertIsolated()
        heard.append(value)  // main-actor state, no locks or assumeIsolated needed
        if value == 2 { continuation.resume(returning: token!) }
      }
      DispatchQueue.global().async {
        for value in 0...2 { event.notifyObservers(value) }
      }
    }
    #expect(heard == [0, 1, 2])
    token.dispose()
  }
}
