import Dispatch
import Observable
import Testing
import TestSupport

/// Several threads adding, removing and passing at once, on every family. Threads start
/// together behind a barrier; nothing sleeps. Run under ThreadSanitizer in CI.
@Suite("Concurrency", .serialized)
struct ConcurrencyTests {
  static let threads = 4
  static let rounds = 150

  @Test("Concurrent add, remove and pass: exact counts and linearizable changes", arguments: Family.allCases)
  func addRemovePass(family: Family) {
    let observable = family.make()
    let stable = (0..<3).map { _ in Counter() }
    observable.addObserver(stable)
    let failures = Guarded<[String]>([])

    race(threads: Self.threads) { thread in
      for round in 0..<Self.rounds {
        let mine = Counter()
        observable.addObserver(mine)
        // addObserver returned before this pass began: it must call `mine`.
        var sawMine = false, stableCalls = 0
        observable.withObservers { (observer: Counter) in
          if observer === mine { sawMine = true }
          if stable.contains(where: { $0 === observer }) { stableCalls += 1 }
        }
        if !sawMine { failures.withLock { $0.append("thread \(thread) round \(round): added, not called") } }

        observable.removeObserver(mine)
        // removeObserver returned before this pass began: it must not call `mine`.
        sawMine = false
        observable.withObservers { (observer: Counter) in
          if observer === mine { sawMine = true }
          if stable.contains(where: { $0 === observer }) { stableCalls += 1 }
        }
        if sawMine { failures.withLock { $0.append("thread \(thread) round \(round): removed, still called") } }
        if stableCalls != 2 * stable.count {
          failures.withLock { $0.append("thread \(thread) round \(round): \(stableCalls) stable calls") }
        }
        observable.withObservers { (observer: Ping) in observer.ping("") }
      }
    }

    #expect(failures.value == [])
    // Every pass of type Ping called every stable observer exactly once.
    #expect(stable.map(\.count) == Array(repeating: Self.threads * Self.rounds, count: stable.count))
    #expect(census(observable) == .init(observers: stable.count, keys: 0, subscriptions: stable.count))
  }

  @Test("Concurrent adds are never lost", arguments: Family.allCases)
  func noLostAdds(family: Family) {
    let observable = family.make()
    let perThread = 200
    let added = Guarded<[Counter]>([])

    race(threads: Self.threads) { _ in
      var mine: [Counter] = []
      for _ in 0..<perThread {
        let counter = Counter()
        mine.append(counter)
        observable.addObserver(counter)
        if mine.count % 20 == 0 {
          observable.withObservers { (_: Ping) in }
        }
      }
      added.withLock { $0 += mine }
    }

    observable.withObservers { (observer: Ping) in observer.ping("") }
    let counters = added.value
    #expect(counters.count == Self.threads * perThread)
    #expect(counters.allSatisfy { $0.count == 1 })
    #expect(census(observable).observers == Self.threads * perThread)
  }

  @Test("Changes made on one thread are seen by passes that begin after them on another", arguments: Family.allCases)
  func linearizableAcrossThreads(family: Family) {
    let observable = family.make()
    let added = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0)
    let removed = DispatchSemaphore(value: 0), checkedAgain = DispatchSemaphore(value: 0)
    let failures = Guarded<[String]>([])
    let rounds = 300
    let current = Guarded<Counter?>(nil)

    race(threads: 2) { role in
      for round in 0..<rounds {
        if role == 0 {
          let counter = Counter()
          current.withLock { $0 = counter }
          observable.addObserver(counter)
          added.signal()
          checked.wait()
          observable.removeObserver(counter)
          removed.signal()
          checkedAgain.wait()
        } else {
          added.wait()
          let expected = current.value
          var called = 0
          observable.withObservers { (observer: Counter) in if observer === expected { called += 1 } }
          if called != 1 { failures.withLock { $0.append("round \(round): added, called \(called) times") } }
          checked.signal()
          removed.wait()
          called = 0
          observable.withObservers { (observer: Counter) in if observer === expected { called += 1 } }
          if called != 0 { failures.withLock { $0.append("round \(round): removed, called \(called) times") } }
          checkedAgain.signal()
        }
      }
    }
    #expect(failures.value == [])
  }

  @Test("Concurrent keyed add, remove and pass", arguments: KeyedFamily.allCases)
  func keyedAddRemovePass(family: KeyedFamily) {
    let observable = family.make()
    let stable = Counter()
    observable.addKeyedObserver(keys: ["shared", "0", "1", "2", "3"], stable)
    let failures = Guarded<[String]>([])

    race(threads: Self.threads) { thread in
      let key = String(thread)
      for round in 0..<Self.rounds {
        let mine = Counter()
        observable.addKeyedObserver(keys: [key, "shared"], mine)
        var calls = 0
        observable.withKeyedObservers(key: key) { (_, observer: Counter) in
          if observer === mine || observer === stable { calls += 1 }
        }
        observable.removeKeyedObserver(key: key, mine)
        observable.withKeyedObservers(key: key) { (_, observer: Counter) in
          if observer === mine || observer === stable { calls += 1 }
        }
        observable.withKeyedObservers(key: "shared") { (_, observer: Ping) in
          if observer === stable { observer.ping("") }
        }
        observable.removeObserver(mine)
        if calls != 3 { failures.withLock { $0.append("thread \(thread) round \(round): \(calls) calls") } }
      }
    }

    #expect(failures.value == [])
    #expect(stable.count == Self.threads * Self.rounds)
    #expect(census(observable) == .init(observers: 1, keys: 5, subscriptions: 6))
  }
}
