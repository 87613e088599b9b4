import ObservableKit
import Testing
import TestSupport

private extension HubMessage where Payload == String {
  static let hubAsyncActorOwnerText = HubMessage("HubAsyncActorOwnerTests.text")
}

/// A consumer-style actor that observes a hub message with an async handler and itself as
/// owner: the handler changes the actor's state directly, isolated to it.
private actor Inbox {
  var received: [String] = []
  var isolatedRuns = 0
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  func start(hub: SharedEventHub) -> any Disposable {
    hub.observe(.hubAsyncActorOwnerText, with: self, policy: .serial) { inbox, text async in
      inbox.isolatedRuns += 1
      await Task.yield()  // a suspension in the middle: the next call waits for this one
      inbox.received.append(text)
      inbox.check()
    }
  }

  private func check() {
    if let waiter, received.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func wait(for count: Int) async {
    if received.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("A hub's async handler with an actor owner runs isolated to the actor")
struct HubAsyncActorOwnerTests {
  @Test func anActorOwnedAsyncHubHandlerRunsIsolatedInOrder() async {
    let hub = SharedEventHub()
    let inbox = Inbox()
    let token = await inbox.start(hub: hub)
    let texts = (1...20).map { "message \($0)" }
    for text in texts { hub.post(.hubAsyncActorOwnerText, text) }
    await inbox.wait(for: texts.count)
    #expect(await inbox.received == texts, "serial: every post, in order")
    #expect(await inbox.isolatedRuns == texts.count)
    token.dispose()
    #expect(hub.observerCount(of: .hubAsyncActorOwnerText) == 0)
  }

  @Test func theActorOwnerIsHeldWeakly() async {
    let hub = SharedEventHub()
    weak var released: Inbox?
    do {
      let inbox = Inbox()
      released = inbox
      _ = await inbox.start(hub: hub)
    }
    #expect(released == nil, "the subscription does not keep its actor owner alive")
    hub.post(.hubAsyncActorOwnerText, "after")  // ends the subscription of the gone owner
    #expect(hub.observerCount(of: .hubAsyncActorOwnerText) == 0)
  }
}

private extension HubMessage where Payload == Int {
  static let hubAsyncConfinedNumber = HubMessage("HubAsyncActorOwnerTests.number")
}

/// A main-actor view model observing a confined hub with an async handler and itself as
/// owner: the handler touches the model's state, on the main actor.
@MainActor private final class HubViewModel {
  var shown: [Int] = []
  let bag = DisposeBag()
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  init(hub: EventHub) {
    hub.observe(.hubAsyncConfinedNumber, with: self, policy: .serial) { model, value async in
      await Task.yield()
      model.shown.append(value)
      model.check()
    }.disposed(by: bag)
  }

  private func check() {
    if let waiter, shown.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func wait(for count: Int) async {
    if shown.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("A confined hub's async handler runs on the caller's actor")
@MainActor
struct ConfinedHubAsyncHandlerTests {
  @Test func aMainActorViewModelsAsyncHubHandlerRunsInOrder() async {
    let hub = EventHub()
    let model = HubViewModel(hub: hub)
    for value in 1...10 { hub.post(.hubAsyncConfinedNumber, value) }
    await model.wait(for: 10)
    #expect(model.shown == Array(1...10))
    model.bag.dispose()
    #expect(hub.observerCount(of: .hubAsyncConfinedNumber) == 0)
  }
}
