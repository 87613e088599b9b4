import Foundation
import ObservableKit
import Testing
import TestSupport

/// The messages of these tests.
enum PlayerMessages {
  static let didStart = HubMessage<String>("player.didStart")
  static let didStop = HubMessage<Void>("player.didStop")
  static let points = HubMessage<Int>("player.points")
}

/// A view model as an app writes it: main-actor state, `@Property` properties, and a shared hub
/// observed with `[weak self]` handlers that keep the main actor's isolation.
@MainActor
final class NowPlayingViewModel: PropertyModel {
  @Property var title = ""
  @Property var stops = 0
  /// Every title set, in order, seen through the property itself.
  var titles: [String] = []
  let bag = DisposeBag()

  init(hub: SharedEventHub) {
    hub.observe(PlayerMessages.didStart) { [weak self] in
      MainActor.assertIsolated()
      self?.title = $0
    }.disposed(by: bag)
    hub.observe(PlayerMessages.didStop) { [weak self] in self?.stops += 1 }.disposed(by: bag)
    $title.observeChanges { [weak self] in self?.titles.append($0) }.disposed(by: bag)
  }
}

/// `SharedEventHub` and `EventHub` with isolation, in Swift 6 mode: each handler keeps the
/// isolation of the code that registered it. Part of the Contracts section "Event hubs".
///
/// On Linux, swift-testing does not run `@MainActor` tests on the main thread, so isolation is
/// checked with the runtime (`assertIsolated`) and actor facts, never `Thread.isMainThread`.
@Suite("Hub isolation")
struct HubIsolationTests {
  @Test("Contract: a main-actor handler hears a post made on the main actor before post returns")
  @MainActor
  func mainActorPostIsSynchronous() {
    let hub = SharedEventHub()
    let model = NowPlayingViewModel(hub: hub)
    var changes: [String] = []
    let token = model.propertyChanges.observe { changes.append($0) }
    #expect(model.title == "", "no replay")
    hub.post(PlayerMessages.didStart, "Song A")
    #expect(model.title == "Song A", "delivered before post returned")
    #expect(model.titles == ["Song A"], "the handler's set notified the property's own observers")
    hub.post(PlayerMessages.didStop)
    hub.post(PlayerMessages.didStop)
    #expect(model.stops == 2)
    #expect(changes == ["title", "stops", "stops"])
    token.dispose()
  }

  @Test("Contract: a main-actor handler hears posts from other threads later, on the main actor, in order")
  @MainActor
  func otherThreadPostsAreEnqueuedInOrder() async {
    let hub = SharedEventHub()
    let model = NowPlayingViewModel(hub: hub)
    // This test holds the main actor while another thread posts: the calls must wait for it.
    // The thread reaches the hub through a holder emptied once it returns, so that a thread
    // still exiting when the process ends keeps no hub alive: LeakSanitizer would report the
    // hub's weak-reference side table, whose pointer it cannot follow.
    let holder = Guarded<SharedEventHub?>(hub)
    onAnotherThread {
      guard let hub = holder.value else { return }
      for index in 1...20 { hub.post(PlayerMessages.didStart, "song \(index)") }
    }
    holder.value = nil
    #expect(model.title == "", "enqueued to the main actor, not run on the posting thread")
    await Self.waitForTitle("song 20", of: model)
    #expect(model.titles == (1...20).map { "song \($0)" })
  }

  @Test("Contract: posts from a detached task reach a main-actor handler on the main actor, in order")
  @MainActor
  func detachedTaskPostsAreDeliveredInOrder() async {
    let hub = SharedEventHub()
    let model = NowPlayingViewModel(hub: hub)
    let poster = Task.detached {
      for index in 1...50 { hub.post(PlayerMessages.didStart, "song \(index)") }
      hub.post(PlayerMessages.didStop)
    }
    await Self.waitForTitle("song 50", of: model)
    await poster.value
    #expect(model.titles == (1...50).map { "song \($0)" }, "every post, once, in the order of the posts")
    await waitUntil { model.stops == 1 }
    // Nothing of the subscription waits any more: a post on the main actor is synchronous again
    // (with immediate tasks; before the 26 releases it is enqueued, as every call is).
    hub.post(PlayerMessages.didStart, "last")
    if DeliveryPath.usesImmediateTasks {
      #expect(model.title == "last")
    } else {
      await Self.waitForTitle("last", of: model)
    }
  }

  /// Waits, without sleeping, until `model.title` is `title`: its property's observer resumes
  /// a continuation.
  @MainActor
  static func waitForTitle(_ title: String, of model: NowPlayingViewModel) async {
    var token: (any Disposable)?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      var resumed = false
      token = model.$title.observe { current in
        if current == title && !resumed {
          resumed = true
          continuation.resume()
        }
      }
    }
    token?.dispose()
  }

  @Test("Contract: the owner-bound and main-actor forms of SharedEventHub on the main actor")
  @MainActor
  func ownerBoundAndMainActorForms() {
    let hub = SharedEventHub()
    var model: NowPlayingViewModel? = NowPlayingViewModel(hub: hub)
    hub.observe(PlayerMessages.points, with: model!) { model, points in
      MainActor.assertIsolated()
      model.stops += points
    }
    var heard: [Int] = []
    let token = hub.observe(PlayerMessages.points, on: MainActor.shared) { heard.append($0) }
    hub.post(PlayerMessages.points, 3)
    #expect(model?.stops == 3, "the owner-bound handler ran before post returned")
    #expect(heard == [3])
    #expect(hub.observerCount(of: PlayerMessages.points) == 2)
    weak let released = model
    model = nil
    #expect(released == nil, "the hub's subscriptions keep no view model alive")
    hub.post(PlayerMessages.points, 4)
    #expect(heard == [3, 4])
    #expect(hub.observerCount(of: PlayerMessages.points) == 1, "the owner-bound subscription ended with its owner")
    token.dispose()
  }

  @Test("Contract: a handler registered in a custom actor is enqueued to it, in order, even for a post made there")
  func actorHandlerIsEnqueued() async {
    actor Player {
      var seen: [String] = []
      /// Whether a call ran on the posting thread. Marked in the thread's dictionary, not by
      /// its ID: a pthread ID is reused once its thread has exited.
      var ranOnPoster = false
      var token: (any Disposable)?

      func start(_ hub: SharedEventHub) {
        token = hub.observe(PlayerMessages.didStart) { title in
          self.assertIsolated()
          self.seen.append(title)
          if Thread.current.threadDictionary[posterMark] != nil { self.ranOnPoster = true }
        }
      }

      /// Posts while running on this actor; returns what the handler had seen by then.
      func post(_ title: String, to hub: SharedEventHub) -> Int {
        hub.post(PlayerMessages.didStart, title)
        return seen.count
      }

      func count() -> Int { seen.count }

      /// Ends the subscription, whose handler captures this actor.
      func stop() { token?.dispose() }
    }
    let hub = SharedEventHub()
    let player = Player()
    await player.start(hub)
    withWatchdogSharing(hub, "posts to an actor's handler from a thread") { hub in
      Thread.current.threadDictionary[posterMark] = true
      for index in 1...10 { hub.post(PlayerMessages.didStart, "song \(index)") }
    }
    for _ in 0..<100_000 where await player.count() < 10 { await Task.yield() }
    #expect(await player.seen == (1...10).map { "song \($0)" })
    #expect(await !player.ranOnPoster, "no call ran on the posting thread")
    let seenDuringPost = await player.post("inside", to: hub)
    #expect(seenDuringPost == 10, "a post made on the actor does not call its handler before returning")
    for _ in 0..<100_000 where await player.count() < 11 { await Task.yield() }
    #expect(await player.seen.last == "inside")
    await player.stop()
  }

  @Test("Contract: an EventHub kept by a main-actor class calls plain closures that capture non-Sendable state, at once")
  @MainActor
  func confinedHubInMainActorClass() {
    final class Label {
      var text = ""
    }
    @MainActor
    final class Scoreboard: PropertyModel {
      let hub = EventHub()
      let label = Label()
      var total = 0
      var log: [String] = []
      @Property var score = 0
      let bag = DisposeBag()

      init() {
        let label = label
        hub.observe(PlayerMessages.points) { [unowned self] points in
          total += points
          label.text = "total \(total)"
          score = total
        }.disposed(by: bag)
        hub.observe(PlayerMessages.points, with: self) { board, points in board.log.append("owner \(points)") }
        hub.observe(PlayerMessages.didStop) { [unowned self] in log.append("stop") }.disposed(by: bag)
        $score.observeChanges { [unowned self] in log.append("score \($0)") }.disposed(by: bag)
      }
    }
    let board = Scoreboard()
    let sender = Label()
    var fromSender: [Int] = []
    let token = board.hub.observe(PlayerMessages.points, from: sender) { fromSender.append($0) }
    board.hub.post(PlayerMessages.points, 2)
    #expect(board.total == 2, "delivered before post returned")
    #expect(board.label.text == "total 2")
    board.hub.post(PlayerMessages.points, 3, from: sender)
    board.hub.post(PlayerMessages.didStop)
    #expect(board.total == 5)
    #expect(board.score == 5)
    #expect(fromSender == [3])
    #expect(board.log == ["score 2", "owner 2", "score 5", "owner 3", "stop"])
    token.dispose()
  }

  @Test("Contract: an EventHub kept by an actor is posted and observed there, synchronously")
  func confinedHubInActor() async {
    actor Counter {
      let hub = EventHub()
      var total = 0
      var token: (any Disposable)?

      func start() {
        token = hub.observe(PlayerMessages.points) { self.total += $0 }
      }

      /// Posts and returns the total right after: the handler already ran.
      func post(_ points: Int) -> Int {
        hub.post(PlayerMessages.points, points)
        return total
      }

      func stop() { token?.dispose() }
    }
    let counter = Counter()
    await counter.start()
    #expect(await counter.post(2) == 2)
    #expect(await counter.post(3) == 5)
    await counter.stop()
    #expect(await counter.post(4) == 5)
  }
}

/// The key that marks a posting thread in `Thread.current.threadDictionary`.
private let posterMark = "HubIsolationTests.poster"
