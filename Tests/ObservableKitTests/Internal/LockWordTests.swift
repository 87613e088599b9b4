import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// On Linux a property's turn shares the futex word of its storage lock (ObservableKitShims.h,
/// `okit_sync_t`): a set lets go of the lock and takes the turn in one atomic operation, and
/// the lock's contended paths must keep the turn's bits. These tests drive both at once:
/// subscriptions and reads contend for the lock while sets take, request and hand over the
/// turn. A lost turn bit shows as overlapping calls or a value never delivered; a lost lock
/// bit as a lost subscription or corrupted state. CI runs them under ThreadSanitizer.
@Suite("Engine: the lock word shared with the turn")
struct LockWordTests {
  static let threads = 4
  static let rounds = 10_000

  @Test("Contract: sets racing subscriptions and reads on one property: calls never overlap, never go back, end on the final value; no subscription is lost")
  func setsRacingSubscriptions() {
    nonisolated(unsafe) let property = Property(0, observationTracking: false)
    let log = ValueLog<Int>()
    let inside = Guarded(0)
    let overlapped = Guarded(false)
    let token = property.observeChanges { value in
      if inside.withLock({ $0 += 1; return $0 }) > 1 { overlapped.value = true }
      log.record(value)
      inside.withLock { $0 -= 1 }
    }
    race(threads: Self.threads) { index in
      for round in 1...Self.rounds {
        switch index {
        case 0, 1:
          // Two setters: the turn is taken, requested and handed over all the time.
          property.value = round * 2 + index
        case 2:
          // Subscriptions and disposals take the lock while the turn is held elsewhere.
          let other = property.observeChanges { _ in }
          _ = property.observerCount
          other.dispose()
        default:
          // Reads take the lock too.
          _ = property.value
          _ = property.isObserved
        }
      }
    }
    let final = property.value
    let values = log.values
    #expect(!overlapped.value, "a handler was called concurrently with itself")
    #expect(values.last == final, "the observer did not end on the final value")
    #expect(Set(values).count == values.count, "a value was delivered twice")
    for setter in 0..<2 {
      let own = values.filter { $0 % 2 == setter }
      #expect(zip(own, own.dropFirst()).allSatisfy { $0.0 < $0.1 }, "a value came after a newer one")
    }
    #expect(property.observerCount == 1, "a subscription or disposal was lost")
    token.dispose()
    #expect(property.observerCount == 0)
  }

  @Test("Contract: a set from inside a handler while other threads set and register is queued behind the pass, in order")
  func reentrantSetsUnderContention() {
    nonisolated(unsafe) let property = Property(0, observationTracking: false)
    let log = ValueLog<Int>()
    let inside = Guarded(0)
    let overlapped = Guarded(false)
    let token = property.observeChanges { value in
      if inside.withLock({ $0 += 1; return $0 }) > 1 { overlapped.value = true }
      log.record(value)
      // An odd value is followed at once by the next even one, from inside the pass.
      if value % 2 == 1 { property.value = value + 1 }
      inside.withLock { $0 -= 1 }
    }
    race(threads: Self.threads) { index in
      for round in 0..<Self.rounds {
        if index < 2 {
          property.value = (round * 2 + index) * 2 + 1
        } else {
          property.observeChanges { _ in }.dispose()
        }
      }
    }
    let final = property.value
    let values = log.values
    #expect(!overlapped.value, "a handler was called concurrently with itself")
    #expect(values.last == final, "the observer did not end on the final value")
    #expect(final % 2 == 0, "the last set, made from inside a handler, was lost")
    #expect(property.observerCount == 1)
    token.dispose()
  }
}
