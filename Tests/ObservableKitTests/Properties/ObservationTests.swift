#if canImport(Observation)
import Foundation
import Observation
import Testing
import TestSupport

@testable import ObservableKit

/// Each test is marked available where `withObservationTracking` is (macOS 14, iOS 17): a
/// suite type cannot carry the attribute.
@Suite("Swift Observation")
struct ObservationTests {
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("reading value inside withObservationTracking registers it; a set fires onChange")
  func tracking() {
    nonisolated(unsafe) let property = Property(1)
    let changed = Tally()
    let seenInOnChange = Guarded(0)
    let read = withObservationTracking {
      property.value
    } onChange: {
      changed.increment()
      seenInOnChange.value = property.value  // onChange runs before the new value is stored
    }
    #expect(read == 1)
    #expect(changed.value == 0)
    property.value = 2
    #expect(changed.value == 1)
    #expect(seenInOnChange.value == 1)
    property.value = 3
    #expect(changed.value == 1, "onChange is one-shot, as in Observation")
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Window: while a set is parked in Observation's willSet, the property's lock is free; the set then lands")
  func setParkedInWillSet() {
    nonisolated(unsafe) let property = Property(0)
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let heard = ValueLog<Int>()
    let token = property.observeChanges { heard.record($0) }
    _ = withObservationTracking {
      property.value  // the first read makes the registrar
    } onChange: {
      entered.signal()
      release.wait()  // user code in the window between the set's two critical sections
    }
    let done = DispatchSemaphore(value: 0)
    Thread {
      property.value = 1
      done.signal()
    }.start()
    entered.wait()
    // Another set would wait for Observation's own lock, which it holds while onChange
    // runs; everything of ours goes on.
    let seen = Guarded(-1)
    withWatchdog("reads, observes and disposes while a set is parked in willSet") {
      seen.value = property.value
      let late = property.observe { _ in }
      late.dispose()
      _ = property.observerCount
    }
    #expect(seen.value == 0, "the parked set has not stored its value yet")
    release.signal()
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(heard.values == [1])
    #expect(property.value == 1)
    token.dispose()
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("A property nobody has read makes no registrar and still reports sets once read")
  func registrarIsLazy() {
    let property = Property(0)
    property.value = 1
    #expect(property.storage.withLock { $0.state.registrar == nil })
    let changed = Tally()
    _ = withObservationTracking { property.value } onChange: { changed.increment() }
    #expect(property.storage.withLock { $0.state.registrar != nil })
    property.value = 2
    #expect(changed.value == 1)
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("modify fires onChange too; an untracked read registers nothing")
  func modifyAndUntracked() {
    let property = Property(1)
    let other = Property(1)
    let changed = Tally()
    _ = other.value
    withObservationTracking {
      _ = property.value
    } onChange: {
      changed.increment()
    }
    other.value = 5
    #expect(changed.value == 0)
    property.modify { $0 += 1 }
    #expect(changed.value == 1)
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("a property created with observationTracking: false is invisible to Observation")
  func optOut() {
    let property = Property(1, observationTracking: false)
    let changed = Tally()
    withObservationTracking {
      _ = property.value
    } onChange: {
      changed.increment()
    }
    property.value = 2
    #expect(changed.value == 0)
  }
}
#endif
