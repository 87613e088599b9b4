import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: an actor owning an async
// subscription, and owners of async subscriptions that go.

private actor Library {
  var loaded: [Int] = []
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
  let tracked: Tracked

  init(ids: SharedEvent<Int>, tracked: Tracked) {
    self.tracked = tracked
    ids.observe(with: self, policy: .serial) { library, id async in
      await Task.yield()
      library.loaded.append(id)
      library.check()
    }
  }

  private func check() {
    if let waiter, loaded.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func wait(for count: Int) async {
    if loaded.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@Suite("QA acceptance: an actor owning an async subscription")
struct QAActorAsyncOwnerAcceptanceTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func serialAsyncHandlerIsolatedToTheActorInOrderAndEndsWithIt() async {
    let tracker = LifetimeTracker()
    let ids = SharedEvent<Int>()
    var library: Library? = Library(ids: ids, tracked: tracker.make())
    for id in 1...30 { ids.notifyObservers(id) }
    await library!.wait(for: 30)
    #expect(await library!.loaded == Array(1...30))
    library = nil
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(10))
    while tracker.liveCount > 0 && clock.now < deadline { await Task.yield() }
    #expect(tracker.liveCount == 0, "the async subscription keeps the actor alive")
    ids.notifyObservers(31)
    #expect(ids.observerCount == 0)
  }
}

@Suite("QA acceptance: owners of async subscriptions end them at the next value")
@MainActor
struct QAAsyncOwnerGoneAcceptanceTests {
  @MainActor final class ViewModel {
    var loaded: [Int] = []
    let tracked: Tracked
    init(_ tracked: Tracked) { self.tracked = tracked }
  }

  @Test func confinedOwnerGoneEndsTheSubscriptionAtTheNextValue() async {
    let tracker = LifetimeTracker()
    let ids = ObservableEvent<Int>()
    var viewModel: ViewModel? = ViewModel(tracker.make())
    ids.observe(with: viewModel!, policy: .serial) { viewModel, id async in viewModel.loaded.append(id) }
    viewModel = nil
    #expect(tracker.liveCount == 0)
    ids.notifyObservers(1)
    #expect(ids.observerCount == 0, "a value that finds the owner gone leaves the subscription counted")
  }

  @Test func sharedOwnerGoneEndsTheSubscriptionAtTheNextValue() async {
    let tracker = LifetimeTracker()
    let ids = SharedEvent<Int>()
    var viewModel: ViewModel? = ViewModel(tracker.make())
    ids.observe(with: viewModel!, policy: .latest) { viewModel, id async in viewModel.loaded.append(id) }
    viewModel = nil
    #expect(tracker.liveCount == 0)
    ids.notifyObservers(1)
    #expect(ids.observerCount == 0, "a value that finds the owner gone leaves the subscription counted")
  }
}
