import ObservableKit

// Seed 003's multicast delegate as a main-actor app writes it: a protocol of the app's,
// observers held weakly by a WeakObserverList, told synchronously in the order they came.

@MainActor protocol AudioPlayerObserver: AnyObject {
  func playerDidStart(_ track: String)
  func playerDidStop()
}

@MainActor final class AudioPlayer {
  private let observers = WeakObserverList<any AudioPlayerObserver>()

  func addObserver(_ observer: any AudioPlayerObserver) { observers.add(observer) }

  func play(_ track: String) { observers.forEach { $0.playerDidStart(track) } }
  func stop() { observers.forEach { $0.playerDidStop() } }
}

@MainActor final class NowPlayingScreen: AudioPlayerObserver {
  let name: String
  var lines: [String] = []

  init(_ name: String) { self.name = name }

  func playerDidStart(_ track: String) { lines.append("\(name) plays \(track)") }
  func playerDidStop() { lines.append("\(name) stops") }
}
