import Foundation
import Testing
import TestSupport

@testable import ObservableKit

private final class Screen: Sendable {
  let shown = ValueLog<Int>()
  let tracked: Tracked?

  init(tracked: Tracked? = nil) {
    self.tracked = tracked
  }
}

@Suite("Owner-bound observation")
struct OwnerTests {
  @Test("the owner is passed strongly; no token needs to be kept")
  func ownerPassedIn() {
    let event = ObservableEvent<Int>()
    let screen = Screen()
    event.observe(with: screen) { screen, value in screen.shown.record(value) }
    event.notifyObservers(1)
    #expect(screen.shown.values == [1])
    #expect(event.observerCount == 1)
  }

  @Test("Contract: once the owner is gone nothing is delivered and it stops counting at once")
  func endsWithOwner() {
    let event = ObservableEvent<Int>()
    let property = Property(0)
    let calls = Tally()
    do {
      let screen = Screen()
      event.observe(with: screen) { _, _ in calls.increment() }
      property.observe(with: screen) { _, _ in calls.increment() }
      #expect(event.observerCount == 1 && property.observerCount == 1)
      #expect(calls.value == 1, "the property replayed")
    }
    #expect(event.observerCount == 0)
    #expect(!property.isObserved)
    event.notifyObservers(1)
    property.value = 1
    #expect(calls.value == 1)
  }

  @Test("Contract: the handler is released at the next touch on Linux; nothing stays alive")
  func handlerReleased() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    do {
      let screen = Screen()
      let captured = tracker.make()
      event.observe(with: screen) { _, _ in captured.touch() }
    }
    event.notifyObservers(1)  // the next touch: removes the subscription, releases the handler
    #expect(tracker.liveCount == 0)
  }

  @Test("an owner's own bag releases its handlers during the owner's deinit")
  func ownerBag() {
    final class Controller: Sendable {
      let bag = DisposeBag()
    }
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    do {
      let controller = Controller()
      let captured = tracker.make()
      event.observe(with: controller) { _, _ in captured.touch() }.disposed(by: controller.bag)
    }
    #expect(tracker.liveCount == 0)
    #expect(!event.isObserved)
  }

  @Test("the owner is kept alive for the duration of each call")
  func ownerAliveDuringCall() {
    let event = ObservableEvent<Int>()
    let holder = Guarded<Screen?>(Screen())
    let stillThere = Guarded(false)
    event.observe(with: holder.value!) { screen, _ in
      holder.value = nil  // drops the last outside reference
      stillThere.value = screen.shown.count == 0
    }
    event.notifyObservers(1)
    #expect(stillThere.value)
    #expect(!event.isObserved)
  }

  @Test("a derived source ends its upstream subscription once the owner is gone")
  func derivedSource() {
    let event = ObservableEvent<Int>()
    let calls = Tally()
    do {
      let screen = Screen()
      event.map { $0 * 2 }.observe(with: screen) { screen, value in
        screen.shown.record(value)
        calls.increment()
      }
      event.notifyObservers(1)
    }
    event.notifyObservers(2)
    #expect(calls.value == 1)
    #expect(!event.isObserved, "the next value ended the upstream subscription")
  }

  @Test("unsubscribe ends owner-bound property subscriptions too")
  func unsubscribeEndsOwnerBound() {
    let property = Property(0)
    let screen = Screen()
    property.observe(with: screen) { screen, value in screen.shown.record(value) }
    property.subscribe(screen) { _, _ in }
    #expect(property.observerCount == 2)
    property.unsubscribe(screen)
    property.value = 1
    #expect(screen.shown.values == [0])
    #expect(!property.isObserved)
  }
}
