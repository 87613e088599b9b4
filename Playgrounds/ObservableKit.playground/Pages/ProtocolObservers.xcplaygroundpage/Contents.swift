/*:
 [Previous: event hubs](@previous)

 # Protocol observers

 The `Observable` library brings the protocol-observer API of Flowduino's Observable: an
 observer conforms to a protocol you define, registers with `addObserver`, and the
 observable calls it with `withObservers`, naming the protocol in the closure. Observers are
 held weakly and called synchronously, in the order they registered.

 [Next: keyed observers](@next)
 */
import Observable

/*:
 The example of Flowduino's README. The observer protocol is class-bound, because observers
 are objects held weakly.
 */
protocol DummyObservable: AnyObject {
  func onFooChanged(oldValue: String, newValue: String)
  func onBarChanged(oldValue: String, newValue: String)
}

class Dummy: ObservableClass {
  private var _foo = "Hello"
  var foo: String {
    get { _foo }
    set {
      // The observers are called now, before the assignment, so they see the old value.
      withObservers { (observer: DummyObservable) in
        observer.onFooChanged(oldValue: _foo, newValue: newValue)
      }
      _foo = newValue
      objectWillChange.send()  // for SwiftUI, where Combine exists
    }
  }

  private var _bar = "World"
  var bar: String {
    get { _bar }
    set {
      withObservers { (observer: DummyObservable) in
        observer.onBarChanged(oldValue: _bar, newValue: newValue)
      }
      _bar = newValue
      objectWillChange.send()
    }
  }
}

class DummyObserver: DummyObservable {
  let name: String

  init(name: String) {
    self.name = name
  }

  func onFooChanged(oldValue: String, newValue: String) {
    print("\(name): Foo changed from \(oldValue) to \(newValue)")
  }

  func onBarChanged(oldValue: String, newValue: String) {
    print("\(name): Bar changed from \(oldValue) to \(newValue)")
  }
}

example("ObservableClass") {
  let observable = Dummy()
  let first = DummyObserver(name: "first")
  let second = DummyObserver(name: "second")
  observable.addObserver(first)
  observable.addObserver([second, first])  // adding again changes nothing, not even the order
  observable.foo = "Test 1"
  observable.bar = "Test 2"

  observable.removeObserver(first)
  observable.foo = "Test 3"
}

//: Observers are held weakly: one that has gone is never called.
example("Weak observers") {
  let observable = Dummy()
  let survivor = DummyObserver(name: "survivor")
  observable.addObserver(survivor)
  withExtendedLifetime(DummyObserver(name: "transient")) { transient in
    observable.addObserver(transient)
    observable.foo = "while both live"
  }
  observable.foo = "after one has gone"
}

/*:
 The hand-written observer protocol of the "AudioPlayer" article, with an empty default for
 each method, so that each observer implements only what it cares about. `ObservableClass`
 replaces the article's weak storage keyed by `ObjectIdentifier` and its loop over it.
 */
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
  struct Item {
    let title: String
    let duration: Int
  }

  private enum State {
    case idle
    case playing(Item)
    case paused(Item)
  }

  private var state = State.idle {
    didSet { stateDidChange() }
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
    withObservers { (observer: AudioPlayerObserver) in
      switch state {
      case .idle: observer.audioPlayerDidStop(self)
      case .playing(let item): observer.audioPlayer(self, didStartPlaying: item)
      case .paused(let item): observer.audioPlayer(self, didPausePlaybackOf: item)
      }
    }
  }
}

class NowPlayingView: AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
    print("now playing: \(item.title) (\(item.duration) s)")
  }
}

class MiniPlayer: AudioPlayerObserver {
  func audioPlayer(_ player: AudioPlayer, didStartPlaying item: AudioPlayer.Item) {
    print("mini player: ▶ \(item.title)")
  }

  func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf item: AudioPlayer.Item) {
    print("mini player: ⏸ \(item.title)")
  }

  func audioPlayerDidStop(_ player: AudioPlayer) {
    print("mini player: ⏹")
  }
}

example("An observer protocol with default methods") {
  let player = AudioPlayer()
  let nowPlaying = NowPlayingView()
  let miniPlayer = MiniPlayer()
  player.addObserver([nowPlaying, miniPlayer])  // an array may mix classes
  player.play(AudioPlayer.Item(title: "Blue in Green", duration: 337))
  player.pause()
  player.pause()  // not playing: no change, nobody is told
  player.stop()
}

/*:
 One observable can serve several observer protocols: each pass reaches only the observers
 that conform to the protocol its closure names. `(observer: AnyObject)` reaches them all.
 */
protocol ObserverProtocolA: AnyObject {
  func doSomethingForProtocolA()
}

protocol ObserverProtocolB: AnyObject {
  func doSomethingForProtocolB()
}

class OnlyA: ObserverProtocolA {
  func doSomethingForProtocolA() { print("OnlyA does A") }
}

class Both: ObserverProtocolA, ObserverProtocolB {
  func doSomethingForProtocolA() { print("Both does A") }
  func doSomethingForProtocolB() { print("Both does B") }
}

example("Several protocols, one observable") {
  let observable = ObservableClass()
  let onlyA = OnlyA()
  let both = Both()
  observable.addObserver([onlyA, both])
  observable.withObservers { (observer: ObserverProtocolA) in
    observer.doSomethingForProtocolA()
  }
  observable.withObservers { (observer: ObserverProtocolB) in
    observer.doSomethingForProtocolB()
  }
  var count = 0
  observable.withObservers { (_: AnyObject) in count += 1 }
  print("observers in all:", count)
}

//: [Next: keyed observers](@next)
