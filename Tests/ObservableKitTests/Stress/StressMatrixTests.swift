import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Every thread-safe core type under 8 threads × `StressMatrix.operationsPerThread` mixed
/// operations, with exact accounting. CI runs this under ThreadSanitizer; `race` turns a
/// deadlock into a failure.
@Suite("Stress matrix: core", .serialized)
struct CoreStressMatrixTests {
  static let threads = StressMatrix.threads
  static let operations = StressMatrix.operationsPerThread

  @Test("ObservableEvent: notify, observe/dispose, owner-bound; no delivery lost or duplicated")
  func event() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let stable = (0..<3).map { _ in Tally() }
    let tokens = stable.map { tally in event.observe { tally.increment(by: $0) } }
    let notifies = Tally()
    let disposals = Tally()
    let lateCalls = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      var sent = 0
      var disposed = 0
      for index in 0..<Self.operations {
        switch (index + thread) % 4 {
        case 0, 1:
          event.notifyObservers(1)
          sent += 1
        case 2:
          let isDisposed = Guarded(false)
          let token = event.observe { _ in if isDisposed.value { lateCalls.increment() } }
          token.dispose()
          isDisposed.value = true
          disposed += 1
        default:
          final class Owner: Sendable {}
          var owner: Owner? = Owner()
          event.observe(with: owner!) { _, _ in }
          owner = nil
          _ = owner
        }
      }
      notifies.increment(by: sent)
      disposals.increment(by: disposed)
    }
    for tally in stable { #expect(tally.value == notifies.value) }
    // A pass that another thread began before a dispose returned may still make its call;
    // each other thread has at most one pass in progress at that moment.
    #expect(lateCalls.value <= (Self.threads - 1) * disposals.value)
    #expect(event.observerCount == stable.count, "dead owners and disposed tokens stopped counting")
    tokens.forEach { $0.dispose() }
    #expect(!event.isObserved)
  }

  @Test("Property: modify, set, observe/dispose, reads; exact final value, never backwards")
  func property() {
    nonisolated(unsafe) let property = Property(0, observationTracking: false)
    let stable = (0..<3).map { _ in ValueLog<Int>() }
    let tokens = stable.map { property.observeChanges($0.handler) }
    let increments = Tally()
    let regressions = Tally()
    // Observers that join mid-race, with a replay; their handlers check for overlapping calls.
    let late = (0..<Self.threads).map { _ in ValueLog<Int>() }
    let lateTokens = Guarded<[any Disposable]>([])
    let inside = Tally()
    let overlaps = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      var done = 0
      for index in 0..<Self.operations {
        if index == Self.operations / 2 {
          let log = late[thread]
          let token = property.observe { value in
            inside.increment()
            if inside.value > 1 { overlaps.increment() }
            log.record(value)
            inside.increment(by: -1)
          }
          lateTokens.withLock { $0.append(token) }
        }
        switch (index + thread) % 4 {
        case 0, 1:
          property.modify { $0 += 1 }
          done += 1
        case 2:
          let last = Guarded(-1)
          let token = property.observe { value in
            if value < last.value { regressions.increment() }
            last.value = value
          }
          token.dispose()
        default:
          _ = property.value
        }
      }
      increments.increment(by: done)
    }
    #expect(property.value == increments.value, "no increment was lost")
    #expect(regressions.value == 0)
    for log in stable {
      let values = log.values
      #expect(values.last == increments.value, "an observer did not end on the final value")
      #expect(zip(values, values.dropFirst()).allSatisfy { $0.0 < $0.1 }, "values went backwards or repeated")
    }
    for log in late {
      let values = log.values
      #expect(values.last == increments.value, "an observer that joined mid-race did not end on the final value")
      #expect(zip(values, values.dropFirst()).allSatisfy { $0.0 < $0.1 }, "a late observer's values went backwards or repeated")
    }
    #expect(overlaps.value == 0, "one thread at a time delivers")
    tokens.forEach { $0.dispose() }
    lateTokens.value.forEach { $0.dispose() }
    #expect(!property.isObserved)
  }

  @Test("DisposeBag: concurrent adds, prunes and disposals; every subscription ends")
  func disposeBag() {
    // The shared bag's subscriptions live on an event nobody notifies, so that tens of
    // thousands of them cost nothing per notification; each thread's own bags are recycled.
    nonisolated(unsafe) let quiet = ObservableEvent<Int>()
    nonisolated(unsafe) let busy = ObservableEvent<Int>()
    let shared = DisposeBag()
    race(threads: Self.threads, timeout: 600) { thread in
      var own = DisposeBag()
      for index in 0..<Self.operations {
        switch (index + thread) % 4 {
        case 0:
          quiet.observe { _ in }.disposed(by: shared)
        case 1:
          let token = busy.observe { _ in }
          token.disposed(by: own)
          token.dispose()  // disposed elsewhere: the bag prunes it
        case 2:
          busy.observe { _ in }.disposed(by: own)
        default:
          busy.notifyObservers(index)
        }
        if thread == 0 && index == Self.operations / 2 { shared.dispose() }
        if index % 64 == 63 {
          own.dispose()
          own = DisposeBag()
        }
      }
      own.dispose()
    }
    #expect(shared.isDisposed)
    #expect(!quiet.isObserved, "every subscription of the shared bag ended, added before or after its dispose")
    #expect(!busy.isObserved)
  }

  @Test("DisposeBag above its prune threshold: dispose() while 7 threads add; nothing it held is called after it returns")
  func disposeBagAgainstAddsAbovePruneThreshold() {
    let rounds = max(1, Self.operations / 2_000)
    let lateCalls = Tally()
    let leftOver = Tally()
    for _ in 0..<rounds {
      nonisolated(unsafe) let event = ObservableEvent<Int>()
      let bag = DisposeBag()
      let heldBeforeDispose = Tally()
      // 4,095 live entries: the threshold is 4,096, so the adders prune as they cross it.
      for _ in 0..<4_095 { event.observe { _ in heldBeforeDispose.increment() }.disposed(by: bag) }
      race(threads: Self.threads, timeout: 600) { thread in
        if thread == 0 {
          bag.dispose()
          event.notifyObservers(1)
          lateCalls.increment(by: heldBeforeDispose.value)
        } else {
          for _ in 0..<1_000 { event.observe { _ in }.disposed(by: bag) }
        }
      }
      leftOver.increment(by: event.observerCount)
    }
    #expect(lateCalls.value == 0, "dispose() returned while entries it held were live")
    #expect(leftOver.value == 0, "every entry, added before or after dispose, ended")
  }

  @Test("Owner pruning against concurrent passes: dead owners' subscriptions pruned by counts while others notify")
  func ownerPruningAgainstPasses() {
    final class Owner: Sendable {}
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let stable = Tally()
    let token = event.observe { _ in stable.increment() }
    let notifies = Tally()
    let badCounts = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      var sent = 0
      for index in 0..<Self.operations / 4 {
        switch (index + thread) % 3 {
        case 0:
          event.notifyObservers(1)
          sent += 1
        case 1:
          var owner: Owner? = Owner()
          event.observe(with: owner!) { _, _ in }
          owner = nil
          _ = owner
        default:
          // Never below the one stable subscription, never counting a dead owner twice.
          if event.observerCount < 1 { badCounts.increment() }
        }
      }
      notifies.increment(by: sent)
    }
    #expect(stable.value == notifies.value)
    #expect(badCounts.value == 0)
    #expect(event.observerCount == 1, "every dead owner's subscription was pruned")
    token.dispose()
  }

  @Test("Operators: map/filter chains, take, removeDuplicates and merge under concurrent notifies")
  func operators() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    nonisolated(unsafe) let other = ObservableEvent<Int>()
    let mapped = Tally()
    let merged = Tally()
    let chain = event.map { $0 * 2 }.filter { $0 >= 0 }.observe { mapped.increment(by: $0 / 2) }
    let merge = event.merge(with: other).observe { merged.increment(by: $0) }
    let notifies = Tally()
    let overTaken = Tally()
    race(threads: Self.threads, timeout: 600) { thread in
      var sent = 0
      for index in 0..<Self.operations {
        switch (index + thread) % 4 {
        case 0, 1:
          event.notifyObservers(1)
          other.notifyObservers(1)
          sent += 1
        case 2:
          let heard = Tally()
          let token = event.take(2).observe { _ in heard.increment() }
          event.notifyObservers(0)
          event.notifyObservers(0)
          event.notifyObservers(0)
          // The second value may arrive on another thread, which ends the subscription a
          // moment later; only the count is exact here. That they all ended is checked below.
          if heard.value > 2 { overTaken.increment() }
          _ = token
        default:
          let token = event.removeDuplicates().skip(1).observe { _ in }
          token.dispose()
        }
      }
      notifies.increment(by: sent)
    }
    #expect(mapped.value == notifies.value)
    #expect(merged.value == 2 * notifies.value)
    #expect(overTaken.value == 0, "take(2) delivered more than 2 values")
    #expect(event.observerCount == 2, "every take(2) ended; the chain and the merge remain")
    chain.dispose()
    merge.dispose()
    #expect(!event.isObserved && !other.isObserved, "the chains released their upstream subscriptions")
  }
}
