/*:
 [Previous: delivery and async](@previous)

 # Event hubs

 An `EventHub` carries typed messages between parts of an app that do not know each other,
 where `NotificationCenter` would. Each message is declared once, with the type of what it
 carries; posting takes exactly that type, and handlers receive it with no cast. A hub is an
 instance you create and hand to the code that needs it: there is no global one.

 The example is the audio player of the "Observers in Swift" articles, which posted
 notifications when playback started, paused or stopped.

 [Next: protocol observers](@next)
 */
import Foundation
import ObservableKit

struct Item: Sendable {
  let title: String
  let duration: Int
}

//: The messages, declared once. `Void` is the payload of a message that carries nothing.
enum PlayerMessages {
  static let playbackStarted = HubMessage<Item>("AudioPlayer.playbackStarted")
  static let playbackPaused = HubMessage<Item>("AudioPlayer.playbackPaused")
  static let playbackStopped = HubMessage<Void>("AudioPlayer.playbackStopped")
}

//: The player is given its hub, and posts `from: self`, so observers can pick one player.
final class AudioPlayer {
  private let hub: EventHub
  private var state = State.idle {
    didSet { stateDidChange() }
  }

  private enum State {
    case idle
    case playing(Item)
    case paused(Item)
  }

  init(hub: EventHub) {
    self.hub = hub
  }

  func play(_ item: Item) {
    state = .playing(item)
  }

  func pause() {
    if case .playing(let item) = state {
      state = .paused(item)
    }
  }

  func stop() {
    state = .idle
  }

  private func stateDidChange() {
    switch state {
    case .idle: hub.post(PlayerMessages.playbackStopped, from: self)
    case .playing(let item): hub.post(PlayerMessages.playbackStarted, item, from: self)
    case .paused(let item): hub.post(PlayerMessages.playbackPaused, item, from: self)
    }
  }
}

/*:
 The now-playing screen observes with itself as the owner: it needs no `[weak self]` and no
 token, and its subscriptions end when it goes away. It hears every player.
 */
final class NowPlayingViewController {
  private(set) var title = "Nothing playing"

  init(hub: EventHub) {
    hub.observe(PlayerMessages.playbackStarted, with: self) { controller, item in
      controller.title = "\(item.title) (\(item.duration) s)"
      print("now playing: \(controller.title)")
    }
    hub.observe(PlayerMessages.playbackStopped, with: self) { controller, _ in
      controller.title = "Nothing playing"
      print("now playing: \(controller.title)")
    }
  }
}

example("Two observers, two players") {
  let hub = EventHub()
  let music = AudioPlayer(hub: hub)
  let preview = AudioPlayer(hub: hub)
  let bag = DisposeBag()

  // The mini player follows the music player only: `from:` filters by sender.
  hub.observe(PlayerMessages.playbackStarted, from: music) { item in
    print("mini player: \(item.title)")
  }.disposed(by: bag)
  hub.observe(PlayerMessages.playbackPaused, from: music) { item in
    print("mini player: \(item.title), paused")
  }.disposed(by: bag)
  hub.observe(PlayerMessages.playbackStopped, from: music) {  // a Void message
    print("mini player: hidden")
  }.disposed(by: bag)

  withExtendedLifetime(NowPlayingViewController(hub: hub)) {
    music.play(Item(title: "Blue in Green", duration: 337))
    preview.play(Item(title: "Ringtone", duration: 5))  // the mini player does not hear it
    music.pause()
    music.stop()
  }
  preview.stop()  // the screen has gone, and the mini player ignores this player
  print("observers of playbackStarted:", hub.observerCount(of: PlayerMessages.playbackStarted))
}

/*:
 `events(_:from:)` turns a message into an event, for operators and `for await`.
 */
example("A message as an event") {
  let hub = EventHub()
  let player = AudioPlayer(hub: hub)
  let bag = DisposeBag()
  hub.events(PlayerMessages.playbackStarted, from: player)
    .filter { $0.duration > 60 }
    .map(\.title)
    .observe { print("worth a scrobble:", $0) }
    .disposed(by: bag)
  player.play(Item(title: "Jingle", duration: 12))
  player.play(Item(title: "So What", duration: 562))
}

/*:
 An `EventHub` stays in the isolation domain that made it, like an `ObservableEvent`. To
 post from a task and observe elsewhere, use a `SharedEventHub`: payloads are `Sendable`,
 and a handler keeps the isolation of the code that registers it. Registered here, on the
 main actor, it runs on the main actor; a post from a detached task reaches it through the
 main queue, which `runMainQueue(until:)` runs.
 */
enum DownloadMessages {
  static let finished = HubMessage<String>("Downloads.finished")
}

example("SharedEventHub: post from a task") {
  let hub = SharedEventHub()
  let bag = DisposeBag()
  var finished: [String] = []  // main-actor state
  hub.observe(DownloadMessages.finished) { title in
    finished.append(title)
    print("main actor: \(title) is ready; on the main thread: \(Thread.isMainThread)")
  }.disposed(by: bag)
  Task.detached {
    hub.post(DownloadMessages.finished, "Episode 12")
  }
  runMainQueue(until: { !finished.isEmpty })
}

//: [Next: protocol observers](@next)
