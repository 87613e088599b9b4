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

/// The five contract violations of issue 19, each pinned by a test that failed before its fix.
@Suite("Contract regressions (issue 19)")
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
}
