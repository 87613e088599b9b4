import Observable
import Testing

// Seed 003 ("Observers in Swift", part 1): the AudioPlayer with an observation protocol
// whose methods have default empty implementations, written with this module. The seed's
// hand-made weak `Observation` storage and `stateDidChange()` loop become `ObservableClass`
// and one `withObservers`; `: class` becomes `: AnyObject` (the old spelling warns in
// Swift 6); UIKit views become plain classes.

protocol AudioPlayerObserver: AnyObject {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item)

  func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf item: AudioPlayer.Item)

  func audioPlayerDidStop(_ player: AudioPlayer)
}

extension AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {}

  func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf item: AudioPlayer.Item) {}

  func audioPlayerDidStop(_ player: AudioPlayer) {}
}

class AudioPlayer: ObservableClass {
  struct Item: Equatable {
    let title: String
    let duration: Int
  }

  private var state = State.idle {
    // We add a property observer on 'state', which lets us
    // run a function on each value change.
    didSet { stateDidChange() }
  }

  func play(_ item: Item) {
    state = .playing(item)
    startPlayback(with: item)
  }

  func pause() {
    switch state {
    case .idle, .paused:
      // Calling pause when we're not in a playing state
      // could be considered a programming error, but since
      // it doesn't do any harm, we simply break here.
      break
    case .playing(let item):
      state = .paused(item)
      pausePlayback()
    }
  }

  func stop() {
    state = .idle
    stopPlayback()
  }

  private func startPlayback(with item: Item) {}
  private func pausePlayback() {}
  private func stopPlayback() {}
}

private extension AudioPlayer {
  enum State {
    case idle
    case playing(Item)
    case paused(Item)
  }

  func stateDidChange() {
    withObservers { (observer: AudioPlayerObserver) in
      switch state {
      case .idle:
        observer.audioPlayerDidStop(self)
      case .playing(let item):
        observer.audioPlayer(self, didStartPlaying: item)
      case .paused(let item):
        observer.audioPlayer(self, didPausePlaybackOf: item)
      }
    }
  }
}

/// Implements one method of the protocol; the others keep their empty defaults.
class NowPlayingViewController {
  let player: AudioPlayer
  var titleLabelText: String?
  var durationLabelText: String?

  init(player: AudioPlayer) {
    self.player = player
  }

  func viewDidLoad() {
    player.addObserver(self)
  }
}

extension NowPlayingViewController: AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
    titleLabelText = item.title
    durationLabelText = "\(item.duration)"
  }
}

/// Implements every method.
class MiniPlayer: AudioPlayerObserver {
  var events: [String] = []

  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
    events.append("start \(item.title)")
  }

  func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf item: AudioPlayer.Item) {
    events.append("pause \(item.title)")
  }

  func audioPlayerDidStop(_ player: AudioPlayer) {
    events.append("stop")
  }
}

@Suite("AudioPlayer with an observer protocol (seed 003)")
struct AudioPlayerProtocolExampleTests {
  @Test("Observers hear the events they implement; the rest fall to the empty defaults")
  func audioPlayer() {
    let player = AudioPlayer()
    let nowPlaying = NowPlayingViewController(player: player)
    let miniPlayer = MiniPlayer()
    nowPlaying.viewDidLoad()
    player.addObserver(miniPlayer)

    let song = AudioPlayer.Item(title: "Song", duration: 180)
    player.play(song)
    player.pause()
    player.pause()  // not playing: no state change, nobody is told
    player.stop()

    #expect(nowPlaying.titleLabelText == "Song")
    #expect(nowPlaying.durationLabelText == "180")
    #expect(miniPlayer.events == ["start Song", "pause Song", "stop"])
  }

  @Test("Observers are held weakly: a released view controller is not retained nor called")
  func weakObservers() {
    let player = AudioPlayer()
    weak var released: NowPlayingViewController?
    do {
      let nowPlaying = NowPlayingViewController(player: player)
      nowPlaying.viewDidLoad()
      released = nowPlaying
    }
    #expect(released == nil)
    player.play(AudioPlayer.Item(title: "Song", duration: 180))
    #expect(census(player).observers == 0)
  }

  @Test("removeObserver unregisters")
  func removal() {
    let player = AudioPlayer()
    let miniPlayer = MiniPlayer()
    player.addObserver(miniPlayer)
    player.play(AudioPlayer.Item(title: "One", duration: 1))
    player.removeObserver(miniPlayer)
    player.stop()
    #expect(miniPlayer.events == ["start One"])
  }
}
