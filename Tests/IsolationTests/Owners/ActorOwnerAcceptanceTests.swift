import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: actors own subscriptions.

/// An actor that owns subscriptions made in its init, and can be waited on.
private actor Counter {
  var count = 0
  var heard: [Int] = []
  let tracked: Tracked
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  init(event: SharedEvent<Int>, property: SharedProperty<Int>, hub: SharedEventHub, message: HubMessage<Int>, tracked: Tracked) {
    self.tracked = tracked
    event.observe(with: self) { owner, value in owner.count += value; owner.note(value) }
    property.observe(with: self) { owner, value in owner.count += value; owner.note(value) }
    hub.observe(message, with: self) { owner, value in owner.count += value; owner.note(value) }
  }

  init(tracked: Tracked) { self.tracked = tracked }

  func subscribe(to property: SharedProperty<Int>) {
    property.subscribe(self) { owner, value, _ in owner.count += value; owner.note(value) }
  }

  func observe(_ event: SharedEvent<Int>) {
    event.observe(with: self) { owner, value in owner.count += value; owner.note(value) }
  }

  func note(_ value: Int) {
    heard.append(value)
    if let waiter, heard.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func wait(for count: Int) async {
    if heard.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("QA acceptance: actors own subscriptions")
struct QAActorOwnerAcceptanceTests {
  @Test(arguments: ["event", "property", "hub"])
  func actorInitSubscriptionDeliversInOrderAndEndsWithTheActor(source: String) async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let property = SharedProperty(0)
    let hub = SharedEventHub()
    let message = HubMessage<Int>("n")
    var counter: Counter? = Counter(
      event: source == "event" ? event : SharedEvent(),
      property: source == "property" ? property : SharedProperty(0),
      hub: source == "hub" ? hub : SharedEventHub(),
      message: message, tracked: tracker.make())
    for v in 1...50 {
      switch source {
      case "event": event.notifyObservers(v)
      case "property": property.value = v
      default: hub.post(message, v)
      }
    }
    // 50 values and one property's replay of 0.
    await counter!.wait(for: 51)
    #expect(await counter!.heard.filter { $0 != 0 } == Array(1...50), "values out of order")
    #expect(await counter!.count == 50 * 51 / 2)
    counter = nil
    #expect(tracker.liveCount == 0, "a subscription keeps the actor alive")
    event.notifyObservers(1)
    property.value = 51
    hub.post(message, 1)
    #expect(event.observerCount == 0)
    #expect(property.observerCount == 0)
    #expect(hub.observerCount(of: message) == 0)
  }

  @Test func actorMethodSubscriptionsWork() async {
    let tracker = LifetimeTracker()
    let event = SharedEvent<Int>()
    let property = SharedProperty(5)
    var counter: Counter? = Counter(tracked: tracker.make())
    await counter!.observe(event)
    await counter!.subscribe(to: property)
    for v in 1...100 { event.notifyObservers(v) }
    property.value = 1007
    await counter!.wait(for: 101)
    let heard = await counter!.heard
    #expect(heard.filter { $0 <= 100 } == Array(1...100), "the event's values out of order")
    #expect(heard.contains(1007) && heard.count == 101)
    #expect(await counter!.count == 5050 + 1007)
    property.unsubscribe(counter!)
    #expect(property.observerCount == 0)
    counter = nil
    #expect(tracker.liveCount == 0)
    event.notifyObservers(1)
    #expect(event.observerCount == 0)
  }
}
