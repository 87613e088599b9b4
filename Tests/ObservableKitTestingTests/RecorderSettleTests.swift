import Dispatch
import ObservableKit
import ObservableKitTesting
import Testing

@Suite("A recorder's waitUntilIdle: every value notified before the call is delivered")
struct RecorderSettleTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForAQueueToDeliverWhatWasNotified() async throws {
    let queue = DispatchQueue(label: "settle.serial")
    let event = SharedEvent<Int>()
    let recorder = event.record(on: queue)
    queue.suspend()  // the deliveries wait, so the wait below must be what brings them
    for value in 1...3 { event.notifyObservers(value) }
    #expect(recorder.values == [])
    let waiting = Task { try await recorder.waitUntilIdle() }
    queue.resume()
    try await waiting.value
    #expect(recorder.values == [1, 2, 3])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForTheConfinedFamilyThroughAQueue() async throws {
    let queue = DispatchQueue(label: "settle.confined")
    let property = Property(0)
    let recorder = property.record(on: queue)
    queue.suspend()
    property.value = 1
    property.value = 2
    let waiting = Task { try await recorder.waitUntilIdle() }
    queue.resume()
    try await waiting.value
    #expect(recorder.values == [0, 1, 2])
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForTheMainActorToDeliverValuesNotifiedElsewhere() async throws {
    let event = SharedEvent<Int>()
    let recorder = event.record(on: MainActor.shared)
    await Task.detached {
      for value in 1...3 { event.notifyObservers(value) }
    }.value
    try await recorder.waitUntilIdle()
    #expect(recorder.values == [1, 2, 3])
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aPlainRecorderIsAlwaysIdle() async throws {
    let event = SharedEvent<Int>()
    let recorder = event.record()
    event.notifyObservers(1)
    try await recorder.waitUntilIdle(timeout: .zero)
    #expect(recorder.values == [1])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aDeliveryThatDoesNotComeFailsNamingBothSites() async throws {
    let queue = DispatchQueue(label: "settle.stuck")
    let event = SharedEvent<Int>()
    let recorder = event.record(on: queue)
    queue.suspend()
    event.notifyObservers(1)
    do {
      try await recorder.waitUntilIdle(timeout: .milliseconds(50))
      Issue.record("the wait should have run out of time")
    } catch let timeout as RecorderTimeout {
      #expect(timeout.expected == 1)
      #expect(timeout.delivered == 0)
      #expect(timeout.waitSite.hasPrefix("ObservableKitTestingTests/RecorderSettleTests.swift:"))
      #expect(timeout.recordSite.hasPrefix("ObservableKitTestingTests/RecorderSettleTests.swift:"))
    }
    queue.resume()
    try await recorder.waitUntilIdle()
    #expect(recorder.values == [1])
  }
}
