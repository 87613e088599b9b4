import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Property")
struct PropertyTests {
  @Test("Contract: observe replays the current value at once, then every later value")
  func replayThenUpdates() {
    let property = Property(0)
    let recorder = ValueLog<Int>()
    let token = property.observe(recorder.handler)
    #expect(recorder.values == [0])
    property.value = 1
    property.value = 2
    #expect(recorder.values == [0, 1, 2])
    #expect(property.value == 2)
    token.dispose()
    property.value = 3
    #expect(recorder.values == [0, 1, 2])
  }

  @Test("Contract: every set notifies, even with an equal value; creating notifies nobody")
  func everySetNotifies() {
    let property = Property("a")
    let recorder = ValueLog<String>()
    let token = property.observe(recorder.handler)
    property.value = "a"
    property.value = "a"
    #expect(recorder.values == ["a", "a", "a"])
    token.dispose()
  }

  @Test("Contract: the new value is visible through value before any handler runs")
  func valueVisibleToHandlers() {
    let property = Property(0)
    let seen = ValueLog<Int>()
    let token = property.observe { _ in seen.record(property.value) }
    property.value = 5
    #expect(seen.values == [0, 5])
    token.dispose()
  }

  @Test("Contract: handlers run in subscription order")
  func subscriptionOrder() {
    let property = Property(0)
    let order = ValueLog<String>()
    let a = property.observe { order.record("a\($0)") }
    let b = property.observe { order.record("b\($0)") }
    property.value = 1
    #expect(order.values == ["a0", "b0", "a1", "b1"])
    a.dispose()
    b.dispose()
  }

  @Test("Contract: a set inside a handler is queued; every observer sees the same sequence and ends on the final value")
  func reentrantSetIsQueued() {
    let property = Property(0)
    let first = ValueLog<Int>()
    let second = ValueLog<Int>()
    let a = property.observe { value in
      first.record(value)
      if value > 0 && value < 3 { property.value = value + 1 }
    }
    let b = property.observe(second.handler)
    property.value = 1
    #expect(first.values == [0, 1, 2, 3])
    #expect(second.values == [0, 1, 2, 3])
    #expect(property.value == 3)
    a.dispose()
    b.dispose()
  }

  @Test("Contract: a set from inside the replay is queued after the replay")
  func setInsideReplay() {
    nonisolated(unsafe) let property = Property(0)
    let recorder = ValueLog<Int>()
    let token = property.observe { value in
      recorder.record(value)
      if value == 0 { property.value = 1 }
    }
    #expect(recorder.values == [0, 1])
    token.dispose()
  }

  @Test("Contract: observe inside a handler replays the current value, then hears only newer values")
  func observeInsideHandler() {
    nonisolated(unsafe) let property = Property(0)
    let late = ValueLog<Int>()
    let tokens = Guarded<[any Disposable]>([])
    let token = property.observe { value in
      if value == 1 {
        property.value = 2  // queued delivery, but already the current value
        tokens.value.append(property.observe(late.handler))
      }
    }
    property.value = 1
    #expect(late.values == [2], "the replay is the current value, and the queued pass does not repeat it")
    property.value = 3
    #expect(late.values == [2, 3])
    token.dispose()
    tokens.value.forEach { $0.dispose() }
  }

  @Test("Contract: the old value is released outside the lock; its deinit may read the property")
  func oldValueReleasedOutsideLock() {
    let tracker = LifetimeTracker()
    let readInDeinit = Guarded(false)
    withWatchdog("deinit of a replaced value reading the property") {
      let property = Property<Tracked?>(nil)
      nonisolated(unsafe) weak let weakProperty = property
      property.value = tracker.make {
        _ = weakProperty?.observerCount
        readInDeinit.value = true
      }
      property.value = nil
    }
    #expect(readInDeinit.value)
    #expect(tracker.liveCount == 0)
  }

  @Test("Contract: replay runs with no lock held; the handler may use the property")
  func replayOutsideLock() {
    let calls = Tally()
    withWatchdog("using the property inside its replay") {
      let property = Property(1)
      let token = property.observe { _ in
        _ = property.value
        _ = property.observerCount
        calls.increment()
      }
      token.dispose()
    }
    #expect(calls.value == 1)
  }

  @Test("Seed 001: subscribe gets (newValue, oldValue) on every set and no replay")
  func subscribeNewAndOld() {
    final class Controller {}
    let controller = Controller()
    let port = Property(8000)
    let changes = ValueLog<String>()
    port.subscribe(controller) { newValue, oldValue in changes.record("\(oldValue)->\(newValue)") }
    #expect(changes.values == [])
    port.value = 8080
    port <~ 9090
    #expect(changes.values == ["8000->8080", "8080->9090"])
    port.unsubscribe(controller)
    port.value = 1
    #expect(changes.count == 2)
    #expect(!port.isObserved)
  }

  @Test("Seed 001: a subscriber is held weakly and its subscription ends when it deallocates")
  func subscribeIsWeak() {
    final class Controller {}
    let port = Property(1)
    let calls = Tally()
    weak var weakController: Controller?
    do {
      let controller = Controller()
      weakController = controller
      port.subscribe(controller) { _, _ in calls.increment() }
      port.value = 2
    }
    #expect(weakController == nil, "subscribe does not retain the observer")
    port.value = 3
    #expect(calls.value == 1)
    #expect(port.observerCount == 0, "the dead subscription is removed at the next set")
  }

  @Test("unsubscribe of an object that never subscribed does nothing")
  func unsubscribeStranger() {
    final class Controller {}
    let port = Property(1)
    let member = Controller()
    let calls = Tally()
    port.subscribe(member) { _, _ in calls.increment() }
    port.unsubscribe(Controller())
    port.value = 2
    #expect(calls.value == 1)
    port.unsubscribe(member)
  }

  @Test("the token returned by subscribe ends that subscription only")
  func subscribeToken() {
    final class Controller {}
    let port = Property(1)
    let controller = Controller()
    let calls = ValueLog<String>()
    let first = port.subscribe(controller) { n, _ in calls.record("first \(n)") }
    port.subscribe(controller) { n, _ in calls.record("second \(n)") }
    first.dispose()
    port.value = 2
    #expect(calls.values == ["second 2"])
    port.unsubscribe(controller)
    #expect(!port.isObserved)
  }

  @Test("Contract: a property's deinit releases its handlers; nothing leaks")
  func deinitReleases() {
    let tracker = LifetimeTracker()
    do {
      let property = Property(0)
      let tracked = tracker.make()
      let token = property.observe { _ in tracked.touch() }
      property.value = 1
      _ = token
    }
    #expect(tracker.liveCount == 0)
  }
}

@Suite("Property additions")
struct PropertyAdditionTests {
  @Test("Contract: modify is atomic; concurrent increments lose nothing")
  func modifyIsAtomic() {
    nonisolated(unsafe) let counter = Property(0)
    let heard = Tally()
    let token = counter.observeChanges { _ in heard.increment() }
    race(threads: 4) { _ in
      for _ in 0..<500 { counter.modify { $0 += 1 } }
    }
    #expect(counter.value == 2_000)
    #expect(heard.value <= 2_000)
    token.dispose()
  }

  @Test("modify notifies once and returns the closure's result; the closure may read the property")
  func modifyNotifiesOnce() {
    let property = Property([1, 2])
    let heard = ValueLog<[Int]>()
    let token = property.observeChanges(heard.handler)
    let count = property.modify { values -> Int in
      values.append(property.value.count + 1)
      return values.count
    }
    #expect(count == 3)
    #expect(heard.values == [[1, 2, 3]])
    token.dispose()
  }

  // Exit tests run where swift-testing can spawn a child process: macOS and Linux.
  #if os(macOS) || os(Linux)
  @Test("Misuse: setting the property inside its own modify stops with a clear message")
  func modifySettingItself() async {
    await #expect(processExitsWith: .failure) {
      let property = Property(0)
      property.modify { _ in property.value = 1 }
    }
  }
  #endif

  @Test("Contract: observeChanges skips the replay")
  func observeChanges() {
    let property = Property(1)
    let heard = ValueLog<Int>()
    let token = property.observeChanges(heard.handler)
    #expect(heard.values == [])
    property.value = 2
    #expect(heard.values == [2])
    token.dispose()
    let viaChanges = property.changes.observe(heard.handler)
    property.value = 3
    #expect(heard.values == [2, 3])
    viaChanges.dispose()
  }

  @Test("debug descriptions show the type, the value and the observer count")
  func debugDescriptions() {
    let event = ObservableEvent<Int>()
    let property = Property("x")
    let bag = DisposeBag()
    event.observe { _ in }.disposed(by: bag)
    property.observe { _ in }.disposed(by: bag)
    #expect(event.debugDescription == "ObservableEvent<Int>(observers: 1)")
    #expect(property.debugDescription == "Property<String>(value: \"x\", observers: 1)")
    #expect(bag.debugDescription == "DisposeBag(entries: 2)")
    bag.dispose()
    #expect(bag.debugDescription == "DisposeBag(disposed)")
  }
}
