import ObservableKit

// Seed 003's audio player on an EventHub, on the main actor: the player posts typed
// messages as itself, and view models observe them with plain closures that touch
// main-actor state, filtered by sender or bound to an owner.

enum PlayerMessages {
  static let didStart = HubMessage<HubAudioPlayer.Item>("player.didStart")
  static let didPause = HubMessage<HubAudioPlayer.Item>("player.didPause")
  static let didStop = HubMessage<Void>("player.didStop")
}

final class HubAudioPlayer {
  struct Item {
    let title: String
    let duration: Int
  }

  private enum State {
    case idle
    case playing(Item)
    case paused(Item)
  }

  private let hub: EventHub
  private var state = State.idle {
    didSet { stateDidChange() }
  }

  init(hub: EventHub) { self.hub = hub }

  func play(_ item: Item) { state = .playing(item) }

  func pause() {
    if case .playing(let item) = state { state = .paused(item) }
  }

  func stop() { state = .idle }

  private func stateDidChange() {
    switch state {
    case .idle: hub.post(PlayerMessages.didStop, from: self)
    case .playing(let item): hub.post(PlayerMessages.didStart, item, from: self)
    case .paused(let item): hub.post(PlayerMessages.didPause, item, from: self)
    }
  }
}

/// Hears one player's start and stop through the hub, and every pause bound to itself.
final class NowPlayingViewModel {
  var title = "-"
  var duration = "-"
  var pauses: [String] = []
  let bag = DisposeBag()

  init(hub: EventHub, player: HubAudioPlayer) {
    hub.observe(PlayerMessages.didStart, from: player) { [weak self] item in
      self?.title = item.title
      self?.duration = "\(item.duration)s"
    }.disposed(by: bag)
    hub.observe(PlayerMessages.didStop, from: player) { [weak self] in
      self?.title = "-"
      self?.duration = "-"
    }.disposed(by: bag)
    hub.observe(PlayerMessages.didPause, with: self) { viewModel, item in
      viewModel.pauses.append(item.title)
    }
  }
}

func playerOnHub() {
  let hub = EventHub()
  let player = HubAudioPlayer(hub: hub)
  let otherPlayer = HubAudioPlayer(hub: hub)
  let nowPlaying = NowPlayingViewModel(hub: hub, player: player)
  let bag = DisposeBag()
  var log: [String] = []
  hub.observe(PlayerMessages.didStart) { log.append("start \($0.title)") }.disposed(by: bag)
  hub.observe(PlayerMessages.didStop) { log.append("stop") }.disposed(by: bag)

  player.play(HubAudioPlayer.Item(title: "Song", duration: 180))
  print("hub after play: \(nowPlaying.title) \(nowPlaying.duration)")
  otherPlayer.play(HubAudioPlayer.Item(title: "Jingle", duration: 5))  // another sender
  print("hub after other play: \(nowPlaying.title) \(nowPlaying.duration)")
  player.pause()
  player.pause()  // not playing: nothing posted
  otherPlayer.pause()
  player.stop()
  print("hub log: \(log), observers of didPause: \(hub.observerCount(of: PlayerMessages.didPause))")
  print("hub after stop: \(nowPlaying.title) \(nowPlaying.duration), pauses \(nowPlaying.pauses)")
}
