import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// A protocol for the `any P` / `any P & Sendable` pair.
private protocol Shape {}
private struct Square: Shape, Sendable {}

/// A payload no one may receive typed as `Sendable`.
private final class NotSendable {}

private final class Owner: Sendable {
  let log = ValueLog<Int>()
}

/// Contract violations found by adversarial review (hub channels keyed by `Sendable`-ness,
/// shared owner-bound unsubscribe, `take`/`once` disposables, waiting owners, lazy property
/// names), each pinned by a test that failed before its fix.
@Suite("Contract regressions")
struct ContractRegressionTests {
  // MARK: - 1. Payload types that differ only by Sendable

  @Test("Contract: [String: Any] and [String: any Sendable] are two messages on an EventHub")
  func sendableDictionaryIsAnotherMessage() {
    let hub = EventHub()
    let a = HubMessage<[String: Any]>("userInfo")
    let b = HubMessage<[String: any Sendable]>("userInfo")
    let heardB = Tally()
    let heardA = Tally()
    let tokenB = hub.observe(b) { _ in heardB.increment() }
    #expect(hub.observerCount(of: a) == 0)
    #expect(hub.observerCount(of: b) == 1)
    hub.post(a, ["x": NotSendable()])
    #expect(heardB.value == 0)
    let tokenA = hub.observe(a) { _ in heardA.increment() }
    hub.post(a, ["x": NotSendable()])
    hub.post(b, ["x": 1])
    #expect(heardA.value == 1)
    #expect(heardB.value == 1)
    #expect(hub.observerCount(of: a) == 1)
    #expect(a != HubMessage<[String: Any]>("other"))
    tokenA.dispose()
    tokenB.dispose()
  }

  @Test("Contract: Any and any Sendable, any P and any P & Sendable, are different messages")
  func sendableExistentialsAreOtherMessages() {
    let hub = EventHub()
    let heard = ValueLog<String>()
    let tokens = [
      hub.observe(HubMessage<any Sendable>("m")) { _ in heard.record("any Sendable") },
      hub.observe(HubMessage<any Shape & Sendable>("m")) { _ in heard.record("any Shape & Sendable") },
    ]
    hub.post(HubMessage<Any>("m"), NotSendable())
    hub.post(HubMessage<any Shape>("m"), Square())
    #expect(heard.values == [])
    #expect(hub.observerCount(of: HubMessage<Any>("m")) == 0)
    #expect(hub.observerCount(of: HubMessage<any Shape>("m")) == 0)
    hub.post(HubMessage<any Sendable>("m"), 1)
    hub.post(HubMessage<any Shape & Sendable>("m"), Square())
    #expect(heard.values == ["any Sendable", "any Shape & Sendable"])
    tokens.forEach { $0.dispose() }
  }

  @Test("A Sendable payload's message declared in unconstrained generic code is the non-Sendable one on an EventHub, the same one on a SharedEventHub")
  func genericDeclarationRule() {
    func declared<T>(_: T.Type, _ name: String) -> HubMessage<T> { HubMessage<T>(name) }
    func declaredSendable<T: Sendable>(_: T.Type, _ name: String) -> HubMessage<T> { HubMessage<T>(name) }
    let concrete = HubMessage<Int>("n")
    #expect(declaredSendable(Int.self, "n") == concrete)
    #expect(declared(Int.self, "n") != concrete)
    let hub = EventHub()
    let log = ValueLog<Int>()
    let token = hub.observe(concrete, log.handler)
    hub.post(declaredSendable(Int.self, "n"), 1)
    hub.post(declared(Int.self, "n"), 2)
    #expect(log.values == [1])
    token.dispose()
    let shared = SharedEventHub()
    let sharedLog = ValueLog<Int>()
    let sharedToken = shared.observeNonisolated(concrete, sharedLog.handler)
    shared.post(declared(Int.self, "n"), 3)
    #expect(sharedLog.values == [3])
    #expect(shared.observerCount(of: declared(Int.self, "n")) == 1)
    sharedToken.dispose()
  }

  // MARK: - 2. SharedProperty.unsubscribe ends observe(with:)

  @Test("Contract: SharedProperty.unsubscribe(owner) ends observe(with: owner) and subscribe(owner)")
  func sharedUnsubscribeEndsOwnerBoundObserve() {
    let property = SharedProperty(0)
    let owner = Owner()
    let changes = ValueLog<Int>()
    let observed = property.observe(with: owner) { owner, value in owner.log.record(value) }
    let subscribed = property.subscribe(owner) { _, new, _ in changes.record(new) }
    #expect(owner.log.values == [0])
    #expect(property.observerCount == 2)
    property.value = 1
    property.unsubscribe(owner)
    property.value = 2
    #expect(owner.log.values == [0, 1])
    #expect(changes.values == [1])
    #expect(property.observerCount == 0)
    #expect(observed.isDisposed)
    #expect(subscribed.isDisposed)
  }

  @Test("Contract: a SharedProperty's owner-bound subscription stops counting once its owner has gone")
  func sharedOwnerBoundStopsCounting() {
    let property = SharedProperty(0)
    var owner: Owner? = Owner()
    _ = property.observe(with: owner!) { owner, value in owner.log.record(value) }
    #expect(property.observerCount == 1)
    owner = nil
    #expect(property.observerCount == 0)
    property.value = 1
  }

  // MARK: - 3. isDisposed once the source is gone

  @Test("Contract: take and once disposables report isDisposed once their source deinitializes, both families")
  func takeDisposablesEndWithTheirSource() {
    let tracker = LifetimeTracker()
    var event: ObservableEvent<Int>? = ObservableEvent()
    var shared: SharedEvent<Int>? = SharedEvent()
    var property: Property<Int>? = Property(0)
    let captured = tracker.make()
    let tokens: [any Disposable] = [
      event!.take(3).observe { _ in captured.touch() },
      event!.once().observe { _ in captured.touch() },
      event!.map { $0 + 1 }.take(2).observe { _ in captured.touch() },
      shared!.take(3).observeNonisolated { _ in captured.touch() },
      shared!.once().observeNonisolated { _ in captured.touch() },
      shared!.take(2).observe { _ in captured.touch() },
      property!.take(3).observe { _ in captured.touch() },
    ]
    event!.notifyObservers(1)
    shared!.notifyObservers(1)
    #expect(tokens.map { $0.isDisposed } == [false, true, false, false, true, false, false])
    event = nil
    shared = nil
    property = nil
    #expect(tokens.allSatisfy { $0.isDisposed })
    withExtendedLifetime(captured) {}
  }

  @Test("Contract: a hub's events(m).once() disposables report isDisposed once the hub has gone")
  func hubOnceEndsWithTheHub() {
    let message = HubMessage<Int>("m")
    var hub: EventHub? = EventHub()
    var shared: SharedEventHub? = SharedEventHub()
    let tokens: [any Disposable] = [
      hub!.events(message).once().observe { _ in },
      hub!.events(message).take(2).observe(with: Owner()) { _, _ in },
      shared!.events(message).once().observeNonisolated { _ in },
      shared!.events(message).once().observe { _ in },
    ]
    #expect(!tokens[0].isDisposed)
    #expect(!tokens[2].isDisposed)
    hub = nil
    shared = nil
    #expect(tokens.allSatisfy { $0.isDisposed })
  }

  @Test("Contract: observe(with:) on an events view whose hub has gone returns a disposable already disposed")
  func ownerBoundOnDeadHubViewIsDisposed() {
    let message = HubMessage<Int>("m")
    let owner = Owner()
    var hub: EventHub? = EventHub()
    var shared: SharedEventHub? = SharedEventHub()
    let view = hub!.events(message)
    let sharedView = shared!.events(message)
    let alive = view.observe(with: owner) { owner, value in owner.log.record(value) }
    let mapped = view.map { $0 * 2 }.observe(with: owner) { owner, value in owner.log.record(value) }
    hub!.post(message, 1)
    #expect(owner.log.values == [1, 2])
    hub = nil
    shared = nil
    #expect(alive.isDisposed)
    #expect(mapped.isDisposed)
    #expect(view.observe(with: owner) { _, _ in }.isDisposed)
    #expect(view.once().observe(with: owner) { _, _ in }.isDisposed)
    #expect(sharedView.observe(with: owner) { _, _ in }.isDisposed)
    #expect(sharedView.once().observeNonisolated { _ in }.isDisposed)
  }

  // MARK: - 5. propertyChanges names a lazy property

  @Test("Contract: propertyChanges names a lazy var Property by its declared name")
  func lazyPropertyName() {
    final class Stats: PropertyModel {
      @Property var score = 0
      lazy var stats = Property(0)
      lazy var _raw = Property(0)
      lazy var notMade = Property(0)
    }
    let model = Stats()
    _ = model.stats
    _ = model._raw
    let names = ValueLog<String>()
    let token = model.propertyChanges.observe(names.handler)
    model.stats.value = 1
    model._raw.value = 1
    model.score = 1
    model.notMade.value = 1
    #expect(names.values == ["stats", "_raw", "score"])
    token.dispose()
  }
}
