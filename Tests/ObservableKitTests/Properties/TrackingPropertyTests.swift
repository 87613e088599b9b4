#if canImport(Observation)
import Foundation
import Observation
import Testing
import TestSupport

@testable import ObservableKit

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
final class TrackedGame {
  var level = 1
  // `@Property` under `@Observable` needs `@ObservationIgnored`: the macro would otherwise
  // add a `_score` of its own beside the wrapper's. The property reports its own reads and
  // sets to Observation, so tracking still sees `score`.
  @ObservationIgnored @Property var score = 0
}

/// An actor that owns a model and a tracking property over it: the recomputes run on the
/// actor, so the handler may touch its state.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
actor TrackingScoreboard {
  let game = TrackedGame()
  private(set) var heard: [String] = []
  private var total: ReadOnlyProperty<String>?
  private var token: (any Disposable)?
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  func start() {
    let game = game
    let total = ReadOnlyProperty(tracking: { "\(game.level):\(game.score)" })
    token = total.observe { [unowned self] in self.record($0) }
    self.total = total
  }

  func play(level: Int, score: Int) {
    game.level = level
    game.score = score
  }

  func stop() {
    token?.dispose()
  }

  private func record(_ text: String) {
    heard.append(text)
    if let waiter, heard.count >= waiter.count {
      self.waiter = nil
      waiter.continuation.resume()
    }
  }

  func waitForCount(_ count: Int) async {
    if heard.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

/// An actor that keeps a tracking property and its subscription, in a bag, and never
/// disposes them itself.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
actor TrackingBoardWithBag {
  let game: TrackedGame
  // Made in a method: an actor's synchronous init is not isolated to the actor, so it cannot
  // make a tracking property.
  private var total: ReadOnlyProperty<Int>?
  private(set) var heard: [Int] = []
  private let bag = DisposeBag()

  init(game: TrackedGame) {
    self.game = game
  }

  func start() {
    let game = game
    let total = ReadOnlyProperty(tracking: { game.level })
    total.observe { [unowned self] level in self.heard.append(level) }.disposed(by: bag)
    self.total = total
  }
}

@Suite("Tracking property")
struct TrackingPropertyContractTests {
  @Test("Contract: made inside an actor, it recomputes and notifies on that actor, in order")
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func insideAnActor() async {
    let board = TrackingScoreboard()
    await board.start()
    #expect(await board.heard == ["1:0"])
    await board.play(level: 2, score: 10)
    await board.waitForCount(2)
    #expect(await board.heard == ["1:0", "2:10"], "the two changes of one turn come as one value")
    await board.play(level: 3, score: 10)
    await board.waitForCount(3)
    #expect(await board.heard == ["1:0", "2:10", "3:10"])
    await board.stop()
  }

  @Test("Contract: an actor that keeps the property and a bag deinitializes; its model and the tracking go with it")
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func actorOwnerDeinitializes() async {
    weak var releasedBoard: TrackingBoardWithBag?
    weak var releasedGame: TrackedGame?
    do {
      let game = TrackedGame()
      let board = TrackingBoardWithBag(game: game)
      releasedBoard = board
      releasedGame = game
      await board.start()
      #expect(await board.heard == [1])
    }
    #expect(releasedBoard == nil, "the tracker holds its actor weakly")
    #expect(releasedGame == nil, "the bag's deinit ended tracking")
  }

  @Test("Contract: @ObservationIgnored @Property in an @Observable model is still tracked through the property")
  @MainActor
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func propertyWrapperInObservableModel() async {
    let game = TrackedGame()
    let changed = Tally()
    _ = withObservationTracking { game.score } onChange: { changed.increment() }
    game.score = 5
    #expect(changed.value == 1, "withObservationTracking saw the read of score")

    let heard = Guarded<[Int]>([])
    let done = Guarded<CheckedContinuation<Void, Never>?>(nil)
    let twice = ReadOnlyProperty(tracking: { game.score * 2 })
    let token = twice.observe { value in
      heard.withLock { $0.append(value) }
      if value == 14 { done.value?.resume() }
    }
    let direct = Guarded<[Int]>([])
    let directToken = game.$score.observeChanges { value in direct.withLock { $0.append(value) } }
    await withCheckedContinuation { continuation in
      done.value = continuation
      game.score = 7
    }
    #expect(heard.value == [10, 14])
    #expect(direct.value == [7], "$score is the Property itself")
    token.dispose()
    directToken.dispose()
  }

  @Test("Contract: a subscription keeps tracking after every copy of the property is gone")
  @MainActor
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func subscriptionOutlivesTheProperty() async {
    let game = TrackedGame()
    let heard = Guarded<[Int]>([])
    let done = Guarded<CheckedContinuation<Void, Never>?>(nil)
    let token = ReadOnlyProperty(tracking: { game.level }).observe { value in
      heard.withLock { $0.append(value) }
      if value == 2 { done.value?.resume() }
    }
    await withCheckedContinuation { continuation in
      done.value = continuation
      game.level = 2
    }
    #expect(heard.value == [1, 2], "no value silently lost")
    token.dispose()
  }

  @Test("Contract: disposing from another thread stops tracking; no recompute runs afterwards")
  @MainActor
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func disposeFromAnotherThread() async {
    let game = TrackedGame()
    let reads = Tally()
    let level = ReadOnlyProperty(tracking: {
      reads.increment()
      return game.level
    })
    let token = level.observe { _ in }
    #expect(reads.value == 1)
    await Task.detached { token.dispose() }.value
    game.level = 2  // heard by the disposed session's callback, which enqueues nothing
    let heard = Guarded<[Int]>([])
    let done = Guarded<CheckedContinuation<Void, Never>?>(nil)
    let again = level.observe { value in
      heard.withLock { $0.append(value) }
      if value == 3 { done.value?.resume() }
    }
    await withCheckedContinuation { continuation in
      done.value = continuation
      game.level = 3
    }
    #expect(heard.value == [2, 3])
    #expect(reads.value == 3, "the first start, the restart and one recompute: nothing for the ended session")
    again.dispose()
  }

  @Test("Stress: observers disposed on other threads while the main actor changes the model and recomputes")
  @MainActor
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func disposeRacesWithRecomputes() async {
    let game = TrackedGame()
    let level = ReadOnlyProperty(tracking: { game.level })
    var heard: [Int] = []
    var reached: CheckedContinuation<Void, Never>?
    let keeper = level.observe { value in
      heard.append(value)
      if value == 300, let continuation = reached {
        reached = nil
        continuation.resume()
      }
    }
    for round in 1...300 {
      let tokens = (0..<4).map { _ in level.observe { _ in } }
      let disposing = Task.detached { for token in tokens { token.dispose() } }
      game.level = round
      if round % 7 == 0 { await Task.yield() }
      await disposing.value
    }
    if heard.last != 300 { await withCheckedContinuation { reached = $0 } }
    #expect(heard.first == 1)
    #expect(heard == heard.sorted(), "never an older value after a newer one")
    #expect(heard.last == 300)
    keeper.dispose()
  }

  @Test("Contract: a waiting recompute keeps nothing alive once its session ended")
  @MainActor
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  func waitingRecomputeReleases() {
    let tracker = LifetimeTracker()
    do {
      let game = TrackedGame()
      let marker = tracker.make()
      let level = ReadOnlyProperty(tracking: {
        marker.touch()
        return game.level
      })
      let token = level.observe { _ in }
      game.level = 2  // enqueues a recompute that cannot run yet: this test holds the main actor
      token.dispose()
    }
    #expect(tracker.liveCount == 0, "the enqueued job holds the tracker weakly")
  }
}
#endif
