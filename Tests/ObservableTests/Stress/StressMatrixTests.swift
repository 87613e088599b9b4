import Foundation
import Observable
import Testing
import TestSupport

/// Records the tags of the passes that reached it.
private final class TagCollector: Ping, @unchecked Sendable {
  // Immutable after init; the set itself is guarded.
  let tags = Guarded<Set<String>>([])
  func ping(_ tag: String) { tags.withLock { _ = $0.insert(tag) } }
}

/// Int-keyed, shared between threads; the base class leaves Sendable to subclasses.
private final class SharedIntKeyedThreadSafeClass: KeyedObservableThreadSafeClass<Int>, @unchecked Sendable {}

/// A thread that runs `passes` passes over its observers from its own `main()`.
private final class PassingThread: ObservableThread, @unchecked Sendable {
  let passes: Int

  init(passes: Int) {
    self.passes = passes
    super.init()
  }

  override func main() {
    for _ in 0..<passes { withObservers { (observer: Ping) in observer.ping("") } }
  }
}

/// The compatibility classes under 8 threads × `StressMatrix.operationsPerThread` mixed
/// operations, with exact accounting, including linearizability of add and remove: every
/// thread checks with uniquely tagged passes of its own that an observer it added is called
/// and one it removed is not. CI runs this under ThreadSanitizer.
@Suite("Stress matrix: compatibility classes", .serialized)
struct CompatStressMatrixTests {
  static let threads = StressMatrix.threads
  static let operations = StressMatrix.operationsPerThread

  /// One thread's share: passes, linearizability probes and array add/remove churn.
  private static func churn(
    thread: Int,
    passes: Tally,
    violations: Tally,
    pass: (String) -> Void,
    add: (AnyObject) -> Void,
    remove: (AnyObject) -> Void
  ) {
    var sent = 0
    for index in 0..<operations {
      switch (index + thread) % 4 {
      case 0, 1:
        pass("")
        sent += 1
      case 2:
        let probe = TagCollector()
        let seen = "\(thread)-\(index)-added"
        let unseen = "\(thread)-\(index)-removed"
        add(probe)
        pass(seen)
        remove(probe)
        pass(unseen)
        sent += 2
        let tags = probe.tags.value
        if !tags.contains(seen) || tags.contains(unseen) { violations.increment() }
      default:
        let batch = [Counter(), Counter()]
        batch.forEach(add)
        batch.forEach(remove)
      }
    }
    passes.increment(by: sent)
  }

  @Test("Pruning against concurrent passes: observers deallocate while 8 threads pass and add", arguments: Family.base)
  func pruningAgainstPasses(family: Family) {
    let observable = family.make()
    let survivor = Counter()
    observable.addObserver(survivor)
    let passes = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      var sent = 0
      for index in 0..<Self.operations / 4 {
        if (index + thread) % 2 == 0 {
          observable.withObservers { (observer: Ping) in observer.ping("") }
          sent += 1
        } else {
          // Added and dropped at once: the next pass finds it dead and prunes it.
          observable.addObserver(Counter())
        }
      }
      passes.increment(by: sent)
    }
    #expect(survivor.count == passes.value, "the survivor heard every pass exactly once")
    observable.withObservers { (_: Ping) in }
    #expect(census(observable) == .init(observers: 1, keys: 0, subscriptions: 1), "every dead observer pruned")
  }

  @Test("ObservableThreadSafeClass: passes, add/remove from 8 threads; exact and linearizable")
  func threadSafeClass() {
    let observable = SharedThreadSafeClass()
    let stable = (0..<3).map { _ in Counter() }
    stable.forEach { observable.addObserver($0) }
    let passes = Tally()
    let violations = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      Self.churn(
        thread: thread, passes: passes, violations: violations,
        pass: { tag in observable.withObservers { (observer: Ping) in observer.ping(tag) } },
        add: { observable.addObserver($0) },
        remove: { observable.removeObserver($0) }
      )
    }
    for counter in stable { #expect(counter.count == passes.value) }
    #expect(violations.value == 0, "an add or a remove was not linearizable")
    #expect(census(observable).observers == stable.count)
  }

  @Test("KeyedObservableThreadSafeClass: keyed passes, add/remove from 8 threads; exact and linearizable")
  func keyedThreadSafeClass() {
    let observable = SharedIntKeyedThreadSafeClass()
    let keys = [0, 1, 2]
    let stable = (0..<3).map { _ in Counter() }
    stable.forEach { observable.addKeyedObserver(keys: keys, $0) }
    let passes = Tally()
    let violations = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      let key = keys[thread % keys.count]
      Self.churn(
        thread: thread, passes: passes, violations: violations,
        pass: { tag in observable.withKeyedObservers(key: key) { (_, observer: Ping) in observer.ping(tag) } },
        add: { observable.addKeyedObserver(key: key, $0) },
        remove: { observable.removeKeyedObserver(key: key, $0) }
      )
    }
    for counter in stable { #expect(counter.count == passes.value) }
    #expect(violations.value == 0, "a keyed add or remove was not linearizable")
    let remaining = census(observable)
    #expect(remaining.observers == stable.count && remaining.keys == keys.count, "subscriptions leaked: \(remaining)")
  }

  @Test("ObservableThread: its own passes while 8 threads pass, add and remove; exact and linearizable")
  func observableThread() {
    let ownPasses = Self.operations
    let thread = PassingThread(passes: ownPasses)
    let stable = (0..<3).map { _ in Counter() }
    stable.forEach { thread.addObserver($0) }
    let passes = Tally()
    let violations = Tally()
    thread.start()
    race(threads: Self.threads, timeout: 600) { index in
      Self.churn(
        thread: index, passes: passes, violations: violations,
        pass: { tag in thread.withObservers { (observer: Ping) in observer.ping(tag) } },
        add: { thread.addObserver($0) },
        remove: { thread.removeObserver($0) }
      )
    }
    thread.waitUntilFinished()
    for counter in stable { #expect(counter.count == passes.value + ownPasses) }
    #expect(violations.value == 0)
    #expect(census(thread).observers == stable.count)
  }
}
