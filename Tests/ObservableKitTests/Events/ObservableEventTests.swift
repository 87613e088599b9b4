import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("ObservableEvent")
struct ObservableEventTests {
  @Test("delivers the value to a handler")
  func delivers() {
    let event = ObservableEvent<Int>()
    let recorder = ValueLog<Int>()
    let token = event.observe(recorder.handler)
    event.notifyObservers(1)
    event.notifyObservers(2)
    #expect(recorder.values == [1, 2])
    token.dispose()
  }

  @Test("Contract: handlers run synchronously on the notifying thread, before notify returns")
  func synchronousOnNotifyingThread() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let threads = ValueLog<UInt>()
    let token = event.observe { _ in threads.record(currentThreadID()) }
    let notifier = Guarded<UInt>(0)
    let deliveredBeforeReturn = Guarded(false)
    withWatchdog("notify on another thread") {
      notifier.value = currentThreadID()
      event.notifyObservers(1)
      deliveredBeforeReturn.value = threads.count == 1
    }
    #expect(deliveredBeforeReturn.value)
    #expect(threads.values == [notifier.value])
    token.dispose()
  }

  @Test("Contract: handlers run in subscription order, also after removals")
  func subscriptionOrder() {
    let event = ObservableEvent<Int>()
    let order = ValueLog<Int>()
    var tokens: [any Disposable] = []
    for index in 0..<20 {
      tokens.append(event.observe { _ in order.record(index) })
    }
    for index in stride(from: 1, to: 20, by: 3) { tokens[index].dispose() }
    tokens.append(event.observe { _ in order.record(99) })
    event.notifyObservers(0)
    let expected = (0..<20).filter { ($0 - 1) % 3 != 0 } + [99]
    #expect(order.values == expected)
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: tuple events are observed with a destructuring closure")
  func tupleEvents() {
    let event = ObservableEvent<(score: Int, isHighScore: Bool)>()
    let recorder = ValueLog<String>()
    let token = event.observe { score, isHighScore in recorder.record("\(score) \(isHighScore)") }
    event.notifyObservers((score: 25, isHighScore: false))
    #expect(recorder.values == ["25 false"])
    token.dispose()
  }

  @Test("Contract: Void events are notified with notifyObservers()")
  func voidEvents() {
    let event = ObservableEvent<Void>()
    let counter = Tally()
    let token = event.observe { counter.increment() }
    event.notifyObservers()
    event.notifyObservers(())
    #expect(counter.value == 2)
    token.dispose()
  }

  @Test("observerCount and isObserved follow observe and dispose")
  func observerCount() {
    let event = ObservableEvent<Int>()
    #expect(!event.isObserved)
    let first = event.observe { _ in }
    let second = event.observe { _ in }
    #expect(event.observerCount == 2)
    first.dispose()
    #expect(event.observerCount == 1)
    second.dispose()
    #expect(!event.isObserved)
  }

  @Test("Contract: a handler registered from inside a handler first hears the next notification")
  func observeInsideHandler() {
    let event = ObservableEvent<Int>()
    let late = ValueLog<Int>()
    let tokens = Guarded<[any Disposable]>([])
    let token = event.observe { value in
      if value == 1 { tokens.value.append(event.observe(late.handler)) }
    }
    event.notifyObservers(1)
    #expect(late.values == [])
    event.notifyObservers(2)
    #expect(late.values == [2])
    token.dispose()
    tokens.value.forEach { $0.dispose() }
  }

  @Test("Contract: a handler disposed by an earlier handler is skipped by the pass in progress")
  func disposeOtherInsideHandler() {
    let event = ObservableEvent<Int>()
    let second = ValueLog<Int>()
    let secondToken = Guarded<(any Disposable)?>(nil)
    let first = event.observe { _ in secondToken.value?.dispose() }
    secondToken.value = event.observe(second.handler)
    event.notifyObservers(1)
    event.notifyObservers(2)
    #expect(second.values == [])
    first.dispose()
  }

  @Test("Contract: a handler that disposes itself is not called again")
  func disposeSelfInsideHandler() {
    let event = ObservableEvent<Int>()
    let recorder = ValueLog<Int>()
    let token = Guarded<(any Disposable)?>(nil)
    token.value = event.observe { value in
      recorder.record(value)
      token.value?.dispose()
      event.notifyObservers(value + 1)  // queued; must not reach this handler
    }
    event.notifyObservers(1)
    event.notifyObservers(5)
    #expect(recorder.values == [1])
  }

  @Test("Contract: a notification from inside a handler is queued after the pass, FIFO, same order for all")
  func notifyInsideHandlerIsQueued() {
    let event = ObservableEvent<Int>()
    let first = ValueLog<Int>()
    let second = ValueLog<Int>()
    let firstToken = event.observe { value in
      first.record(value)
      if value == 1 {
        event.notifyObservers(2)
        event.notifyObservers(3)
        #expect(second.values == [], "queued notifications are not delivered inside the pass")
      }
    }
    let secondToken = event.observe { value in
      second.record(value)
      if value == 2 { event.notifyObservers(4) }
    }
    event.notifyObservers(1)
    #expect(first.values == [1, 2, 3, 4])
    #expect(second.values == [1, 2, 3, 4])
    firstToken.dispose()
    secondToken.dispose()
  }

  @Test("Notifying another event from a handler is delivered at once (only same-event calls queue)")
  func crossEventNotifyIsSynchronous() {
    let outer = ObservableEvent<Int>()
    let inner = ObservableEvent<Int>()
    let log = ValueLog<String>()
    let innerToken = inner.observe { log.record("inner \($0)") }
    let outerToken = outer.observe { value in
      log.record("outer \(value) begins")
      inner.notifyObservers(value)
      log.record("outer \(value) ends")
    }
    outer.notifyObservers(1)
    #expect(log.values == ["outer 1 begins", "inner 1", "outer 1 ends"])
    innerToken.dispose()
    outerToken.dispose()
  }

  @Test("Contract: releasing the last reference to an event while it notifies finishes the pass; nothing leaks")
  func releaseEventWhileNotifying() {
    let tracker = LifetimeTracker()
    let recorder = ValueLog<Int>()
    do {
      let holder = Guarded<ObservableEvent<Int>?>(ObservableEvent<Int>())
      let tracked = tracker.make()
      let first = holder.value!.observe { _ in holder.value = nil }
      let second = holder.value!.observe { value in tracked.touch(); recorder.record(value) }
      holder.value!.notifyObservers(7)
      #expect(holder.value == nil)
      #expect(first.isDisposed && second.isDisposed, "the event's death ends its subscriptions")
      first.dispose()
    }
    #expect(recorder.values == [7])
    #expect(tracker.liveCount == 0)
  }

  @Test("Contract: no lock is held while handlers run; every API is callable from a handler")
  func everyAPICallableFromHandler() {
    let calls = Tally()
    withWatchdog("calling the event's API from its handler") {
      let event = ObservableEvent<Int>()
      let token = event.observe { value in
        _ = event.observerCount
        let inner = event.observe { _ in }
        inner.dispose()
        calls.increment()
        if value == 0 { event.notifyObservers(1) }
      }
      event.notifyObservers(0)
      token.dispose()
    }
    #expect(calls.value == 2)
  }

  @Test("Contract: a disposed handler is released after the lock; its deinit may call the event")
  func handlerReleasedOutsideLock() {
    let tracker = LifetimeTracker()
    let reentered = Guarded(false)
    let liveAfterDispose = Guarded(-1)
    withWatchdog("deinit of a disposed handler's capture calling back into the event") {
      nonisolated(unsafe) let event = ObservableEvent<Int>()
      let token = Self.observeCapturing(tracker.make {
        _ = event.observerCount
        let again = event.observe { _ in }
        again.dispose()
        reentered.value = true
      }, on: event)
      token.dispose()
      liveAfterDispose.value = tracker.liveCount
    }
    #expect(liveAfterDispose.value == 0, "dispose releases the handler at once")
    #expect(reentered.value)
  }

  /// Observes `event` with a handler that is the only owner of `tracked`.
  private static func observeCapturing(_ tracked: Tracked, on event: ObservableEvent<Int>) -> any Disposable {
    event.observe { _ in tracked.touch() }
  }

  @Test("Contract: the event's deinit releases handlers outside the lock, and nothing leaks")
  func eventDeinitReleasesHandlers() {
    let tracker = LifetimeTracker()
    var token: (any Disposable)?
    do {
      let event = ObservableEvent<Int>()
      let tracked = tracker.make()
      token = event.observe { _ in tracked.touch() }
      #expect(tracker.liveCount == 1)
    }
    #expect(tracker.liveCount == 0)
    #expect(token?.isDisposed == true)
    token?.dispose()  // a no-op after the event is gone
  }

  @Test("Contract: a handler that captures its own token makes no leak once the event is gone")
  func handlerCapturingOwnToken() {
    let tracker = LifetimeTracker()
    do {
      let event = ObservableEvent<Int>()
      let tracked = tracker.make()
      let holder = Guarded<(any Disposable)?>(nil)
      holder.value = event.observe { _ in tracked.touch(); _ = holder.value }
      event.notifyObservers(1)
    }
    #expect(tracker.liveCount == 0)
  }
}
