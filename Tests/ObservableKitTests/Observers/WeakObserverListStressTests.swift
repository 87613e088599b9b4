import Foundation
import ObservableKit
import Testing
import TestSupport

/// One `WeakObserverList` shared by 8 threads, with exact counts. The lists and observers
/// are not `Sendable`; sharing them is deliberate, and marked `nonisolated(unsafe)`.
@Suite("WeakObserverList stress")
struct WeakObserverListStressTests {
  static let threads = 8
  static let rounds = 2_000

  /// Records the first few violations: a broken list would log thousands.
  static func reporter(_ log: ValueLog<String>) -> @Sendable (String) -> Void {
    { message in if log.count < 10 { log.record(message) } }
  }

  /// An observer that counts its calls; the count is thread-safe, the class is not Sendable.
  final class Probe {
    let index: Int
    let calls = Tally()
    init(_ index: Int) { self.index = index }
  }

  @Test("8 threads adding, removing and visiting: every visit sees exactly what it must, in order")
  func addRemoveVisit() {
    nonisolated(unsafe) let list = WeakObserverList<Probe>()
    nonisolated(unsafe) let stable = (0..<4).map { Probe($0) }
    for probe in stable { list.add(probe) }
    let violations = ValueLog<String>()
    let report = Self.reporter(violations)
    race(threads: Self.threads) { thread in
      let own = (0..<3).map { Probe(100 + $0) }
      for round in 0..<Self.rounds {
        let mine = own[round % own.count]
        list.add(mine)
        list.add(mine)  // idempotent, also under contention
        // The stable probes come first, in order; `mine` was added before this visit began
        // and is removed after it ends, so it is visited exactly once.
        var seen: [Int] = []
        var mineSeen = 0
        list.forEach { probe in
          if probe.index < stable.count {
            probe.calls.increment()
            seen.append(probe.index)
          } else if probe === mine {
            if seen.count != stable.count { report("thread \(thread): own probe before a stable one") }
            mineSeen += 1
          }
        }
        if seen != [0, 1, 2, 3] { report("thread \(thread): stable probes seen \(seen)") }
        if mineSeen != 1 { report("thread \(thread): own probe seen \(mineSeen) times") }
        if !list.contains(mine) { report("thread \(thread): own probe missing") }
        list.remove(mine)
        if list.contains(mine) { report("thread \(thread): removed probe still there") }
        // A visit that begins after remove returned never reaches it.
        list.forEach { probe in
          if probe === mine { report("thread \(thread): removed probe visited") }
        }
        if list.count < stable.count { report("thread \(thread): count below the stable probes") }
      }
    }
    #expect(violations.values == [])
    for probe in stable { #expect(probe.calls.value == Self.threads * Self.rounds) }
    #expect(list.count == stable.count)
    #expect(list.storedSubscriptionCount == stable.count)
  }

  @Test("8 threads on a keyed list: each key's visits see its observers in order, exactly")
  func keyedAddRemoveVisit() {
    nonisolated(unsafe) let list = KeyedWeakObserverList<Probe, Int>()
    let sharedKey = -1
    nonisolated(unsafe) let stable = (0..<3).map { Probe($0) }
    for probe in stable { list.add(probe, for: sharedKey) }
    let violations = ValueLog<String>()
    let report = Self.reporter(violations)
    race(threads: Self.threads) { thread in
      let own = (0..<3).map { Probe(100 + $0) }
      func visit(_ key: Int) -> [Int] {
        var indices: [Int] = []
        list.forEach(for: key) { indices.append($0.index) }
        return indices
      }
      for _ in 0..<Self.rounds {
        for probe in own { list.add(probe, for: thread) }
        if visit(thread) != [100, 101, 102] { report("thread \(thread): \(visit(thread))") }
        list.remove(own[1], for: thread)
        if visit(thread) != [100, 102] { report("thread \(thread): after remove \(visit(thread))") }
        list.forEach(for: sharedKey) { $0.calls.increment() }
        list.remove(own[0], for: thread)
        list.remove(own[2], for: thread)
        if list.count(for: thread) != 0 { report("thread \(thread): key not emptied") }
      }
    }
    #expect(violations.values == [])
    for probe in stable { #expect(probe.calls.value == Self.threads * Self.rounds) }
    #expect(list.count(for: sharedKey) == stable.count)
    #expect(list.storedKeyCount == 1, "the threads' emptied keys take no memory")
  }

  @Test("8 threads whose observers add, remove, count and visit the list during their calls")
  func reentrantUnderContention() {
    // A lock held during a call would deadlock here; the watchdog turns that into a failure.
    withWatchdog("re-entrant visits on 8 threads", timeout: 60) {
      nonisolated(unsafe) let list = WeakObserverList<Probe>()
      nonisolated(unsafe) let stable = (0..<3).map { Probe($0) }
      for probe in stable { list.add(probe) }
      let nested = Tally()
      race(threads: Self.threads) { thread in
        for _ in 0..<Self.rounds / 2 {
          let mine = Probe(100 + thread)
          list.add(mine)
          list.forEach { probe in
            if probe.index < stable.count { probe.calls.increment() }
            guard probe === mine else { return }
            // Its own turn: change the list and visit it again, from inside the visit.
            list.remove(mine)
            list.add(mine)
            _ = list.count
            nested.increment()
            list.forEach { if $0.index < stable.count { $0.calls.increment() } }
          }
          list.remove(mine)
        }
      }
      // Each round's visit reached its own probe once, so it made one nested visit, and
      // both visits reached every stable probe once.
      #expect(nested.value == Self.threads * Self.rounds / 2)
      for probe in stable { #expect(probe.calls.value == Self.threads * Self.rounds) }
      #expect(list.count == stable.count)
    }
  }

  /// An observer that knows whether its deinit has begun.
  final class Mortal {
    let alive = Guarded(true)
    let deinits: Tally
    init(deinits: Tally) { self.deinits = deinits }
    deinit {
      alive.value = false
      deinits.increment()
    }
  }

  @Test("Observers deallocating during visits on other threads: never called dead, never leaked")
  func deallocationDuringVisits() {
    nonisolated(unsafe) let list = WeakObserverList<Mortal>()
    let deinits = Tally()
    nonisolated(unsafe) let stable = (0..<2).map { _ in Mortal(deinits: deinits) }
    for mortal in stable { list.add(mortal) }
    let stableCalls = Tally()
    let deadCalls = Tally()
    let visitors = Self.threads / 2
    race(threads: Self.threads) { thread in
      for round in 0..<Self.rounds {
        if thread < visitors {
          // The visit holds each observer strongly for its call: its deinit cannot have begun.
          list.forEach { mortal in
            if !mortal.alive.value { deadCalls.increment() }
            if stable.contains(where: { $0 === mortal }) { stableCalls.increment() }
          }
        } else {
          // The last reference goes at the end of this iteration, possibly while a visitor
          // holds the observer: its deinit then runs on the visitor's thread.
          let mortal = Mortal(deinits: deinits)
          list.add(mortal)
          if round % 4 == 0 { list.remove(mortal) }
          if round % 8 == 1 { _ = list.count }
        }
      }
    }
    #expect(deadCalls.value == 0)
    #expect(stableCalls.value == visitors * Self.rounds * stable.count)
    #expect(deinits.value == (Self.threads - visitors) * Self.rounds, "the list kept none alive")
    #expect(list.count == stable.count)
    #expect(list.storedSubscriptionCount == stable.count, "the count pruned every dead one")
  }
}
