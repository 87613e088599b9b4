import ObservableKit
import Testing
import TestSupport

/// Values that wait for the main actor hold an owner-bound subscription's owner weakly: a
/// released owner deallocates at once, and nothing is delivered to it afterwards.
@Suite("Owners while values wait")
@MainActor
struct OwnerWhileQueuedTests {
  final class Owner: Sendable {
    let heard = ValueLog<Int>()
  }

  /// Registers an owner-bound main-actor handler with `register` and a plain one with
  /// `registerBarrier`, makes `notify` post from another thread (so both values wait for
  /// the main actor, which this test holds), releases the owner, and checks that it is gone
  /// before the values are drained and is never called.
  private func ownerReleasedWhileValueWaits(
    sourceLocation: SourceLocation = #_sourceLocation,
    register: (Owner) -> any Disposable,
    registerBarrier: (@escaping @MainActor @Sendable () -> Void) -> any Disposable,
    notify: @escaping @Sendable () -> Void
  ) async {
    weak var released: Owner?
    let barrier = Tally()
    var tokens: [any Disposable] = []
    do {
      let owner = Owner()
      released = owner
      tokens.append(register(owner))
      tokens.append(registerBarrier { barrier.increment() })
      let before = owner.heard.count
      withWatchdog("notify from another thread", notify)
      #expect(owner.heard.count == before, "the value waits for the main actor", sourceLocation: sourceLocation)
    }
    #expect(released == nil, "a waiting value does not keep the owner alive", sourceLocation: sourceLocation)
    await waitUntil { barrier.value > 0 }
    #expect(released == nil, sourceLocation: sourceLocation)
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: SharedEvent.observe(with:) on the main actor: a waiting value does not keep the owner alive, nor reach it")
  func sharedEventOwner() async {
    let event = SharedEvent<Int>()
    let calls = Tally()
    await ownerReleasedWhileValueWaits(
      register: { owner in event.observe(with: owner) { owner, value in calls.increment(); owner.heard.record(value) } },
      registerBarrier: { done in event.observe { _ in done() } },
      notify: { event.notifyObservers(1) }
    )
    #expect(calls.value == 0)
  }

  @Test("Contract: SharedEventHub.observe(_:with:) on the main actor: a waiting post does not keep the owner alive, nor reach it")
  func sharedHubOwner() async {
    let hub = SharedEventHub()
    let message = HubMessage<Int>("m")
    let calls = Tally()
    await ownerReleasedWhileValueWaits(
      register: { owner in hub.observe(message, with: owner) { owner, value in calls.increment(); owner.heard.record(value) } },
      registerBarrier: { done in hub.observe(message) { _ in done() } },
      notify: { hub.post(message, 1) }
    )
    #expect(calls.value == 0)
  }

  @Test("Contract: SharedProperty.subscribe on the main actor: a waiting set does not keep the observer alive, nor reach it")
  func sharedPropertySubscribe() async {
    let property = SharedProperty(0)
    let calls = Tally()
    await ownerReleasedWhileValueWaits(
      register: { owner in property.subscribe(owner) { owner, new, _ in calls.increment(); owner.heard.record(new) } },
      registerBarrier: { done in property.observeChanges { _ in done() } },
      notify: { property.value = 1 }
    )
    #expect(calls.value == 0)
  }

  @Test("Contract: SharedProperty.observe(with:) on the main actor: a waiting set does not keep the owner alive, nor reach it")
  func sharedPropertyOwner() async {
    let property = SharedProperty(0)
    let calls = Tally()
    await ownerReleasedWhileValueWaits(
      register: { owner in property.observe(with: owner) { owner, value in calls.increment(); owner.heard.record(value) } },
      registerBarrier: { done in property.observeChanges { _ in done() } },
      notify: { property.value = 1 }
    )
    #expect(calls.value == 1, "only the replay, on the main actor at once, on every path")
  }

  @Test("Contract: a shared owner-bound main-actor handler keeps its owner alive for the call, and hears what waits while the owner lives")
  func ownerAliveHearsWhatWaits() async {
    let event = SharedEvent<Int>()
    let owner = Owner()
    let token = event.observe(with: owner) { owner, value in owner.heard.record(value) }
    withWatchdog("notify from another thread") { for value in 1...3 { event.notifyObservers(value) } }
    #expect(owner.heard.values == [])
    await waitUntil { owner.heard.count == 3 }
    #expect(owner.heard.values == [1, 2, 3])
    token.dispose()
  }
}
