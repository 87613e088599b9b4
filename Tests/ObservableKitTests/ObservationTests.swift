#if canImport(Observation)
import Observation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Swift Observation")
struct ObservationTests {
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
