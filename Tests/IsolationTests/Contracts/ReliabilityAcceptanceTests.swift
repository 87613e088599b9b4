import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: the five contract violations
// and their variations. (`LongLivedOwner` is in Owners/OwnerRecordAcceptanceTests.swift.)

private final class NonSendableThing {}
private protocol Shape {}
private struct Square: Shape {}

@Suite("QA acceptance: reliability")
struct QAReliabilityAcceptanceTests {
  @Test func payloadTypesDifferingBySendableNeverMeet() {
    let hub = EventHub()
    let a = HubMessage<[String: Any]>("userInfo"), b = HubMessage<[String: any Sendable]>("userInfo")
    var heardB = 0
    let t = hub.observe(b) { _ in heardB += 1 }
    hub.post(a, ["x": NonSendableThing()])
    #expect(heardB == 0, "b's observer received a's payload")
    #expect(hub.observerCount(of: a) == 0)
    #expect(hub.observerCount(of: b) == 1)
    hub.post(b, ["x": 1])
    #expect(heardB == 1)
    t.dispose()
  }

  @Test func anyAndAnySendableNeverMeet() {
    let hub = EventHub()
    let a = HubMessage<Any>("value"), b = HubMessage<any Sendable>("value")
    var heard: [String] = []
    let ta = hub.observe(a) { _ in heard.append("a") }
    let tb = hub.observe(b) { _ in heard.append("b") }
    hub.post(a, NonSendableThing())
    hub.post(b, 1)
    #expect(heard == ["a", "b"])
    #expect(hub.observerCount(of: a) == 1 && hub.observerCount(of: b) == 1)
    ta.dispose(); tb.dispose()
  }

  @Test func existentialAndSendableExistentialNeverMeet() {
    let hub = EventHub()
    let a = HubMessage<any Shape>("shape"), b = HubMessage<any Shape & Sendable>("shape")
    var heardB = 0
    let t = hub.observe(b) { _ in heardB += 1 }
    hub.post(a, Square())
    #expect(heardB == 0)
    #expect(hub.observerCount(of: a) == 0)
    t.dispose()
  }

  @Test func sharedHubPayloadsDifferingBySendableInAnArrayNeverMeet() {
    let hub = EventHub()
    let a = HubMessage<[Any]>("list"), b = HubMessage<[any Sendable]>("list")
    var heardB = 0
    let t = hub.observe(b) { _ in heardB += 1 }
    hub.post(a, [NonSendableThing()])
    #expect(heardB == 0)
    t.dispose()
  }

  @Test func sharedPropertyUnsubscribeEndsObserveWithOwner() {
    let p = SharedProperty(0)
    let o = LongLivedOwner()
    let heard = Guarded<[Int]>([])
    p.observe(with: o) { _, v in heard.withLock { $0.append(v) } }
    p.unsubscribe(o)
    #expect(p.observerCount == 0)
    p.value = 1
    // The replay ran at once, on every path; the value set after unsubscribe is never taken.
    #expect(heard.withLock { $0 } == [0])
    #expect(p.observerCount == 0)
  }

  @Test func takeAndOnceChainsReportDisposedAfterTheSourceDeinit() {
    var shared: SharedEvent<Int>? = SharedEvent()
    let a = shared!.take(3).observeNonisolated { _ in }
    let b = shared!.once().observeNonisolated { _ in }
    var event: ObservableEvent<Int>? = ObservableEvent()
    let c = event!.take(3).observe { _ in }
    let d = event!.once().observe { _ in }
    var hub: EventHub? = EventHub()
    let m = HubMessage<Int>("n")
    let e = hub!.events(m).once().observe { _ in }
    let f = hub!.events(m).take(2).observe { _ in }
    var sharedHub: SharedEventHub? = SharedEventHub()
    let g = sharedHub!.events(m).once().observeNonisolated { _ in }
    shared = nil
    event = nil
    hub = nil
    sharedHub = nil
    #expect(a.isDisposed)
    #expect(b.isDisposed)
    #expect(c.isDisposed)
    #expect(d.isDisposed)
    #expect(e.isDisposed)
    #expect(f.isDisposed)
    #expect(g.isDisposed)
  }

  @Test func ownerBoundAndIsolationInheritingTakeChainsReportDisposedAfterTheSourceDeinit() {
    let owner = LongLivedOwner()
    var event: ObservableEvent<Int>? = ObservableEvent()
    let a = event!.take(3).observe(with: owner) { _, _ in }
    var shared: SharedEvent<Int>? = SharedEvent()
    let b = shared!.take(2).observe(with: owner) { _, _ in }
    let c = shared!.once().observe { _ in }
    let m = HubMessage<Int>("n")
    var hub: EventHub? = EventHub()
    let d = hub!.events(m).once().observe(with: owner) { _, _ in }
    var sharedHub: SharedEventHub? = SharedEventHub()
    let e = sharedHub!.events(m).take(1).observe { _ in }
    let f = sharedHub!.events(m).once().observe(with: owner) { _, _ in }
    var property: Property<Int>? = Property(0)
    let g = property!.skip(1).take(2).observe { _ in }
    event = nil
    shared = nil
    hub = nil
    sharedHub = nil
    property = nil
    for (name, token) in [("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("f", f), ("g", g)] {
      #expect(token.isDisposed, "\(name) is not disposed after its source has gone")
    }
  }

  @Test func takeReportsDisposedOnceItsCountIsReached() {
    let event = SharedEvent<Int>()
    let heard = ValueLog<Int>()
    let token = event.take(2).observeNonisolated(heard.handler)
    event.notifyObservers(1)
    #expect(!token.isDisposed)
    event.notifyObservers(2)
    #expect(token.isDisposed)
    event.notifyObservers(3)
    #expect(heard.values == [1, 2])
    #expect(event.observerCount == 0)
  }

  @Test func eventsViewObservedWithOwnerAfterItsHubHasGoneIsDisposed() {
    var hub: EventHub? = EventHub()
    let view = hub!.events(HubMessage<Int>("n"))
    hub = nil
    let owner = LongLivedOwner()
    #expect(view.observe(with: owner) { _, _ in }.isDisposed)
    #expect(view.observe { _ in }.isDisposed)
    var sharedHub: SharedEventHub? = SharedEventHub()
    let sharedView = sharedHub!.events(HubMessage<Int>("n"))
    sharedHub = nil
    #expect(sharedView.observe(with: owner) { _, _ in }.isDisposed)
  }

  @Test func lazyPropertyIsNamedByItsName() {
    final class Model: PropertyModel {
      lazy var stats = Property(0)
      @Property var score = 0
    }
    let model = Model()
    _ = model.stats
    var names: [String] = []
    let t = model.propertyChanges.observe { names.append($0) }
    model.stats.value = 1
    model.score = 2
    #expect(names == ["stats", "score"])
    t.dispose()
  }
}
