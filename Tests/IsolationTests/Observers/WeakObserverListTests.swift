import ObservableKit
import Testing
import TestSupport

/// `WeakObserverList` in Swift 6 mode, as users write it: a class-bound observer protocol,
/// non-`Sendable` observers, visits on one thread.
@Suite("WeakObserverList")
struct WeakObserverListTests {
  /// An observer protocol like a delegate's.
  protocol Listener: AnyObject {
    func heard(_ value: Int)
  }

  /// An observer that logs its calls (and its deinit) into a shared log.
  final class Recorder: Listener {
    let name: String
    let log: Log
    var onHear: (Int) -> Void = { _ in }

    init(_ name: String, _ log: Log) {
      self.name = name
      self.log = log
    }

    deinit { log.lines.append("\(name) deinit") }

    func heard(_ value: Int) {
      log.lines.append("\(name) \(value)")
      onHear(value)
    }
  }

  final class Log {
    var lines: [String] = []
  }

  /// The names of the observers a keyless visit reaches, in order.
  static func names(_ list: WeakObserverList<any Listener>) -> [String] {
    var names: [String] = []
    list.forEach { names.append(($0 as! Recorder).name) }
    return names
  }

  @Test("A visit calls every observer once, synchronously, in subscription order")
  func subscriptionOrder() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let observers = ["a", "b", "c", "d"].map { Recorder($0, log) }
    for observer in observers { list.add(observer) }
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1", "b 1", "c 1", "d 1"])
    #expect(list.count == 4)
    #expect(!list.isEmpty)
    #expect(observers.allSatisfy { list.contains($0) })
  }

  @Test("Adding an observer twice is one subscription, in its first place")
  func idempotentAdd() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b) = (Recorder("a", log), Recorder("b", log))
    list.add(a)
    list.add(b)
    list.add(a)
    #expect(Self.names(list) == ["a", "b"])
    #expect(list.count == 2)
    withExtendedLifetime((a, b)) {}
  }

  @Test("Remove ends one subscription, keeps the others' order; a re-added observer goes last")
  func remove() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b, c) = (Recorder("a", log), Recorder("b", log), Recorder("c", log))
    for observer in [a, b, c] { list.add(observer) }
    list.remove(b)
    #expect(Self.names(list) == ["a", "c"])
    #expect(!list.contains(b))
    list.remove(Recorder("stranger", log))  // does nothing
    list.remove(b)  // twice: does nothing
    #expect(list.count == 2)
    list.add(b)
    #expect(Self.names(list) == ["a", "c", "b"])
    list.removeAll()
    #expect(list.isEmpty)
    #expect(list.count == 0)
    #expect(Self.names(list) == [])
    withExtendedLifetime((a, b, c)) {}
  }

  @Test("Many adds and removes keep the order, and the list holds only what it needs")
  func churnKeepsOrder() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let observers = (0..<100).map { Recorder("\($0)", log) }
    for observer in observers { list.add(observer) }
    for (index, observer) in observers.enumerated() where index % 3 != 0 { list.remove(observer) }
    #expect(Self.names(list) == stride(from: 0, to: 100, by: 3).map { "\($0)" })
    #expect(list.storedSubscriptionCount == 34)
    for (index, observer) in observers.enumerated() where index % 3 != 0 { list.add(observer) }
    #expect(Self.names(list).count == 100)
    #expect(Array(Self.names(list).prefix(3)) == ["0", "3", "6"])
    withExtendedLifetime(observers) {}
  }

  @Test("The list holds observers weakly; a dead one is not visited nor counted, then pruned")
  func weak() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let a = Recorder("a", log)
    var b: Recorder? = Recorder("b", log)
    let c = Recorder("c", log)
    for observer in [a, b!, c] { list.add(observer) }
    weak let weakB = b
    b = nil
    #expect(weakB == nil, "the list kept no strong reference")
    #expect(list.storedSubscriptionCount == 3, "pruned lazily")
    #expect(list.count == 2)
    #expect(list.storedSubscriptionCount == 2, "the count dropped the dead subscription")
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["b deinit", "a 1", "c 1"])
    withExtendedLifetime((a, c)) {}
  }

  @Test("A visit drops the dead observers it comes across")
  func visitPrunes() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    var dead: [Recorder]? = (0..<20).map { Recorder("dead \($0)", log) }
    let survivor = Recorder("survivor", log)
    for observer in dead! { list.add(observer) }
    list.add(survivor)
    dead = nil
    #expect(Self.names(list) == ["survivor"])
    #expect(list.storedSubscriptionCount == 1)
    #expect(!list.isEmpty)
    withExtendedLifetime(survivor) {}
  }

  /// Whether the next object of a size gets the address just freed, as the system allocator
  /// does. AddressSanitizer quarantines freed memory, so under it this is false.
  static var allocatorReusesAddresses: Bool {
    let log = Log()
    let identity = ObjectIdentifier(Recorder("probe", log))
    return (0..<100).contains { _ in ObjectIdentifier(Recorder("probe", log)) == identity }
  }

  @Test(
    "An object at the address of a dead observer is not mistaken for it",
    .enabled(if: WeakObserverListTests.allocatorReusesAddresses, "needs an allocator that reuses addresses")
  )
  func addressReuse() throws {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let first = Recorder("first", log)
    var dead: Recorder? = Recorder("dead", log)
    let deadIdentity = ObjectIdentifier(dead!)
    list.add(first)
    list.add(dead!)
    dead = nil  // nothing has pruned its subscription yet
    // The allocator hands the freed block to the next object of the same size.
    var candidates: [Recorder] = []
    var reused: Recorder?
    for index in 0..<10_000 where reused == nil {
      let candidate = Recorder("new \(index)", log)
      if ObjectIdentifier(candidate) == deadIdentity { reused = candidate } else { candidates.append(candidate) }
    }
    let newcomer = try #require(reused, "no allocation reused the dead observer's address")
    #expect(list.storedSubscriptionCount == 2)
    #expect(!list.contains(newcomer), "the dead subscription is not the newcomer's")
    list.add(newcomer)
    #expect(list.contains(newcomer))
    #expect(Self.names(list) == ["first", newcomer.name], "added as a new observer, last")
    #expect(list.count == 2)
    list.remove(newcomer)
    #expect(Self.names(list) == ["first"])
    withExtendedLifetime((first, newcomer, candidates)) {}
  }

  @Test("Keyed lists: each key visits its own observers, in the order they were added for it")
  func keyed() {
    let log = Log()
    let list = KeyedWeakObserverList<any Listener, String>()
    let (a, b, c) = (Recorder("a", log), Recorder("b", log), Recorder("c", log))
    list.add(b, for: "x")
    list.add(a, for: "x")
    list.add(c, for: "y")
    list.add(a, for: "y")
    list.add(b, for: "x")  // idempotent per key
    list.add(c)
    func visit(_ key: String?) -> [String] {
      var names: [String] = []
      if let key {
        list.forEach(for: key) { names.append(($0 as! Recorder).name) }
      } else {
        list.forEach { names.append(($0 as! Recorder).name) }
      }
      return names
    }
    #expect(visit("x") == ["b", "a"])
    #expect(visit("y") == ["c", "a"])
    #expect(visit(nil) == ["c"])
    #expect(visit("nobody") == [])
    #expect(list.count(for: "x") == 2)
    #expect(list.count == 1)
    #expect(list.contains(a, for: "x") && !list.contains(a))
    #expect(list.storedKeyCount == 2, "visiting or counting an unknown key creates none")

    list.remove(a, for: "x")
    #expect(visit("x") == ["b"])
    #expect(visit("y") == ["c", "a"], "other keys keep their subscriptions")
    list.remove(c)
    #expect(visit(nil) == [])
    #expect(visit("y") == ["c", "a"], "removing without a key leaves the keyed subscriptions")
    list.remove(b, for: "x")
    #expect(list.storedKeyCount == 1, "a key with nothing left takes no memory")
    list.removeAll()
    #expect(visit("y") == [])
    #expect(list.storedKeyCount == 0)
    withExtendedLifetime((a, b, c)) {}
  }

  @Test("Keyed lists hold observers weakly too")
  func keyedWeak() {
    let log = Log()
    let list = KeyedWeakObserverList<any Listener, Int>()
    var a: Recorder? = Recorder("a", log)
    let b = Recorder("b", log)
    list.add(a!, for: 1)
    list.add(b, for: 1)
    list.add(a!, for: 2)
    a = nil
    #expect(list.count(for: 1) == 1)
    var visited: [String] = []
    list.forEach(for: 2) { visited.append(($0 as! Recorder).name) }
    #expect(visited == [])
    #expect(list.storedKeyCount == 1, "key 2 held only the dead observer")
    withExtendedLifetime(b) {}
  }

  @Test("Re-entrancy: an observer added during a visit is not visited by it")
  func addDuringVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b) = (Recorder("a", log), Recorder("b", log))
    let late = Recorder("late", log)
    a.onHear = { _ in list.add(late) }
    list.add(a)
    list.add(b)
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1", "b 1"])
    #expect(Self.names(list) == ["a", "b", "late"])
    withExtendedLifetime((a, b, late)) {}
  }

  @Test("Re-entrancy: an observer removed during a visit, before its turn, is not visited")
  func removeDuringVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b, c, d) = (Recorder("a", log), Recorder("b", log), Recorder("c", log), Recorder("d", log))
    b.onHear = { [unowned b] _ in
      list.remove(b)  // itself, during its own call
      list.remove(a)  // one already called
      list.remove(c)  // one not called yet
    }
    for observer in [a, b, c, d] { list.add(observer) }
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1", "b 1", "d 1"])
    #expect(Self.names(list) == ["d"])
    withExtendedLifetime((a, b, c, d)) {}
  }

  @Test("Re-entrancy: removed and re-added during a visit counts as added: not visited by it")
  func removeAndAddDuringVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b) = (Recorder("a", log), Recorder("b", log))
    a.onHear = { _ in
      list.remove(b)
      list.add(b)
    }
    list.add(a)
    list.add(b)
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1"])
    #expect(Self.names(list) == ["a", "b"])
    withExtendedLifetime((a, b)) {}
  }

  @Test("Re-entrancy: an observer deallocated before its turn is not visited")
  func deallocatedDuringVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let a = Recorder("a", log)
    var b: Recorder? = Recorder("b", log)
    a.onHear = { _ in b = nil }
    list.add(a)
    list.add(b!)
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1", "b deinit"])
    #expect(list.count == 1)
    withExtendedLifetime(a) {}
  }

  @Test("An observer is kept alive for its call; if the list held the last reference, it deinits after")
  func keptAliveForCall() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    var a: Recorder? = Recorder("a", log)
    let b = Recorder("b", log)
    a!.onHear = { _ in
      a = nil  // the visit's reference is now the last one
      log.lines.append("a still running")
    }
    list.add(a!)
    list.add(b)
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1", "a still running", "a deinit", "b 1"])
    withExtendedLifetime(b) {}
  }

  @Test("Re-entrancy: a visit inside a visit runs to completion at once")
  func nestedVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b, c) = (Recorder("a", log), Recorder("b", log), Recorder("c", log))
    b.onHear = { value in
      if value == 1 { list.forEach { $0.heard(2) } }
    }
    for observer in [a, b, c] { list.add(observer) }
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1", "b 1", "a 2", "b 2", "c 2", "c 1"])
    withExtendedLifetime((a, b, c)) {}
  }

  @Test("No lock is held during calls: a call may use every method of the list it is visited by")
  func noLockHeldDuringCalls() {
    // Built inside the watchdog's thread, so that a deadlock fails instead of hanging.
    withWatchdog("a visit whose observer uses the list") {
      let log = Log()
      let list = KeyedWeakObserverList<any Listener, Int>()
      let (a, b, c) = (Recorder("a", log), Recorder("b", log), Recorder("c", log))
      var seen: [String] = []
      a.onHear = { _ in
        list.add(c)
        list.add(c, for: 1)
        seen.append("contains \(list.contains(b)) \(list.contains(c, for: 1))")
        seen.append("count \(list.count) \(list.count(for: 1)) \(list.isEmpty)")
        list.forEach(for: 1) { _ in seen.append("keyed") }
        list.remove(c, for: 1)
        list.remove(c)
      }
      b.onHear = { _ in list.removeAll() }
      list.add(a)
      list.add(b)
      list.add(a, for: 1)
      list.forEach { $0.heard(1) }
      #expect(seen == ["contains true true", "count 3 2 false", "keyed", "keyed"])
      #expect(log.lines == ["a 1", "b 1"])
      #expect(list.count == 0 && list.count(for: 1) == 0)
      withExtendedLifetime((a, b, c)) {}
    }
  }

  @Test("removeAll during a visit: the rest of the visit calls nobody")
  func removeAllDuringVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let (a, b) = (Recorder("a", log), Recorder("b", log))
    a.onHear = { _ in list.removeAll() }
    list.add(a)
    list.add(b)
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1"])
    withExtendedLifetime((a, b)) {}
  }

  /// The list is emptied and refilled while the visit holds a snapshot: the new
  /// subscriptions must not take ids that the resumed visit would mistake for its own.
  @Test("removeAll, then adds, during a visit: the observers added are not visited by it")
  func removeAllThenAddDuringVisit() {
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let originals = ["a", "b", "c", "d"].map { Recorder($0, log) }
    let newcomers = ["e", "f", "g"].map { Recorder($0, log) }
    originals[0].onHear = { _ in
      list.removeAll()
      for observer in newcomers { list.add(observer) }
    }
    for observer in originals { list.add(observer) }
    list.forEach { $0.heard(1) }
    #expect(log.lines == ["a 1"])
    #expect(Self.names(list) == ["e", "f", "g"])
    withExtendedLifetime((originals, newcomers)) {}
  }

  /// A key's list with nothing left takes no memory, so it is made again: its subscriptions
  /// must still take ids past those a visit in progress stops at.
  @Test("A key's list emptied and made again during a visit of that key: the new observers are not visited by it")
  func keyListRemadeDuringVisit() {
    let log = Log()
    let list = KeyedWeakObserverList<any Listener, String>()
    let originals = ["a", "b", "c", "d"].map { Recorder($0, log) }
    let newcomers = ["e", "f", "g"].map { Recorder($0, log) }
    originals[0].onHear = { _ in
      for observer in originals { list.remove(observer, for: "k") }
      for observer in newcomers { list.add(observer, for: "k") }
    }
    for observer in originals { list.add(observer, for: "k") }
    list.forEach(for: "k") { $0.heard(1) }
    #expect(log.lines == ["a 1"])
    var names: [String] = []
    list.forEach(for: "k") { names.append(($0 as! Recorder).name) }
    #expect(names == ["e", "f", "g"])
    originals[0].onHear = { _ in }  // its handler captured `originals`, itself among them: a cycle
    withExtendedLifetime((originals, newcomers)) {}
  }

  @Test("An error thrown by the closure ends the visit and is rethrown")
  func throwingVisit() {
    struct Stop: Error {}
    let log = Log()
    let list = WeakObserverList<any Listener>()
    let observers = ["a", "b", "c"].map { Recorder($0, log) }
    for observer in observers { list.add(observer) }
    var visited = 0
    #expect(throws: Stop.self) {
      try list.forEach { _ in
        visited += 1
        if visited == 2 { throw Stop() }
      }
    }
    #expect(visited == 2)
    withExtendedLifetime(observers) {}
  }

  @Test("Observers may be a class type, and the list is Sendable when the observers are")
  func classObserversAndSendable() {
    final class Counter: Sendable {}
    protocol SharedListener: AnyObject, Sendable {}
    func requireSendable<T: Sendable>(_: T.Type) {}
    requireSendable(WeakObserverList<Counter>.self)
    requireSendable(WeakObserverList<any SharedListener>.self)
    requireSendable(KeyedWeakObserverList<Counter, String>.self)

    let list = WeakObserverList<Counter>()
    let counter = Counter()
    list.add(counter)
    var calls = 0
    list.forEach { if $0 === counter { calls += 1 } }
    #expect(calls == 1)
  }

  // MARK: The example of seed 003

  protocol AudioPlayerObserver: AnyObject {
    func audioPlayer(_ player: AudioPlayer, didStartPlaying track: String)
    func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf track: String)
    func audioPlayerDidStop(_ player: AudioPlayer)
  }

  final class AudioPlayer {
    private enum State {
      case idle
      case playing(String)
      case paused(String)
    }

    private let observers = WeakObserverList<any AudioPlayerObserver>()
    private var state = State.idle {
      didSet { stateDidChange() }
    }

    func addObserver(_ observer: any AudioPlayerObserver) { observers.add(observer) }
    func removeObserver(_ observer: any AudioPlayerObserver) { observers.remove(observer) }

    func play(_ track: String) { state = .playing(track) }

    func pause() {
      if case .playing(let track) = state { state = .paused(track) }
    }

    func stop() { state = .idle }

    private func stateDidChange() {
      switch state {
      case .idle: observers.forEach { $0.audioPlayerDidStop(self) }
      case .playing(let track): observers.forEach { $0.audioPlayer(self, didStartPlaying: track) }
      case .paused(let track): observers.forEach { $0.audioPlayer(self, didPausePlaybackOf: track) }
      }
    }
  }

  /// An observer that owns the player it observes: a cycle if the list held it strongly.
  final class NowPlayingScreen: AudioPlayerObserver {
    let player: AudioPlayer
    let log: Log
    var title = ""

    init(player: AudioPlayer, log: Log) {
      self.player = player
      self.log = log
      player.addObserver(self)
    }

    deinit { log.lines.append("screen deinit") }

    func audioPlayer(_ player: AudioPlayer, didStartPlaying track: String) {
      title = track
      log.lines.append("screen: playing \(track)")
    }

    func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf track: String) {
      log.lines.append("screen: paused \(track)")
    }

    func audioPlayerDidStop(_ player: AudioPlayer) {
      title = ""
      log.lines.append("screen: stopped")
    }
  }

  final class MiniPlayer: AudioPlayerObserver {
    let log: Log
    init(log: Log) { self.log = log }

    func audioPlayer(_ player: AudioPlayer, didStartPlaying track: String) {
      log.lines.append("mini: playing \(track)")
    }

    func audioPlayer(_ player: AudioPlayer, didPausePlaybackOf track: String) {}

    func audioPlayerDidStop(_ player: AudioPlayer) {
      log.lines.append("mini: stopped")
      player.removeObserver(self)  // re-entrant: removes itself during the visit
    }
  }

  @Test("Seed 003: an AudioPlayer tells its observers through a protocol, held weakly")
  func audioPlayerExample() {
    let log = Log()
    let player = AudioPlayer()
    var screen: NowPlayingScreen? = NowPlayingScreen(player: player, log: log)
    let mini = MiniPlayer(log: log)
    player.addObserver(mini)

    player.play("Intro")
    player.pause()
    player.pause()  // not playing: nothing happens
    player.stop()
    player.play("Outro")
    #expect(log.lines == [
      "screen: playing Intro", "mini: playing Intro",
      "screen: paused Intro",
      "screen: stopped", "mini: stopped",
      "screen: playing Outro",
    ])
    #expect(screen?.title == "Outro")

    log.lines = []
    screen = nil  // the screen owns the player; the weak list makes no cycle
    player.stop()
    #expect(log.lines == ["screen deinit"])
    withExtendedLifetime(mini) {}
  }
}
