import Dispatch
import ObservableKit
import ObservableKitTesting
import TestSupport
import Testing

@Suite("record() and the leak check")
struct RecorderTests {
  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func recordsAnEventAndAPropertySynchronously() {
    let event = ObservableEvent<Int>()
    let property = Property("a")
    let events = event.record()
    let values = property.record()
    event.notifyObservers(1)
    property.value = "b"
    #expect(events.values == [1])
    #expect(values.values == ["a", "b"])
    #expect(values.last == "b")
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func recordsTheSharedFamilyOnTheNotifyingThread() {
    let event = SharedEvent<Int>()
    let property = SharedProperty(0)
    let events = event.map { $0 }.record()
    let values = property.record()
    event.notifyObservers(1)
    property.value = 2
    #expect(events.values == [1])
    #expect(values.values == [0, 2])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForValuesDeliveredFromAnotherTask() async throws {
    let event = SharedEvent<Int>()
    let recorder = event.record()
    let producer = Task.detached {
      for value in 1...3 { event.notifyObservers(value) }
    }
    try await recorder.waitForValues(count: 3)
    #expect(recorder.values == [1, 2, 3])
    await producer.value
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForMainActorDeliveries() async throws {
    let event = SharedEvent<Int>()
    var heard: [Int] = []
    let delivered = ObservableEvent<Int>()
    let recorder = delivered.record()
    let token = event.observe(on: MainActor.shared) { value in
      heard.append(value)
      delivered.notifyObservers(value)
    }
    Task.detached { event.notifyObservers(5) }
    try await recorder.waitForValues(count: 1)
    #expect(heard == [5])
    token.dispose()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aWaitThatRunsOutOfTimeNamesBothSites() async throws {
    let event = SharedEvent<Int>()
    let recorder = event.record()
    do {
      try await recorder.waitForValues(count: 1, timeout: .milliseconds(20))
      Issue.record("the wait should have timed out")
    } catch let timeout as RecorderTimeout {
      #expect(timeout.expected == 1)
      #expect(timeout.delivered == 0)
      #expect(timeout.waitSite.hasPrefix("ObservableKitTestingTests/RecorderTests.swift:"))
      #expect(timeout.recordSite == recorder.site)
      #expect(timeout.description.contains(recorder.site))
    }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func disposingARecorderEndsItsSubscription() {
    let event = SharedEvent<Int>()
    var recorder: EventRecorder<Int>? = event.record()
    #expect(event.isObserved)
    recorder?.dispose()
    #expect(!event.isObserved)
    recorder = event.record()
    #expect(event.isObserved)
    recorder = nil
    #expect(!event.isObserved)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLeakCheckNamesTheSurvivorsAndWhereTheyCameFrom() async throws {
    final class Model: Sendable {}
    let kept = Model()
    let event = SharedEvent<Int>()
    var keptRecorder: EventRecorder<Int>?
    do {
      try await withLeakCheck { leaks in
        leaks.track(kept)
        leaks.track(Model(), "released")
        keptRecorder = event.record()
      }
      Issue.record("the check should have failed")
    } catch let failure as LeakCheckFailure {
      #expect(failure.survivors.map(\.name) == ["Model", "record()"])
      #expect(failure.survivors.allSatisfy { $0.site.hasPrefix("ObservableKitTestingTests/RecorderTests.swift:") })
      #expect(failure.description.contains("record() at \(keptRecorder!.site)"))
    }
    keptRecorder?.dispose()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aLeakCheckPassesWhenEverythingWent() async throws {
    let event = SharedEvent<Int>()
    try await withLeakCheck { leaks in
      let recorder = event.record()
      let token = event.observeNonisolated { _ in }
      leaks.track(token)
      event.notifyObservers(1)
      #expect(recorder.values == [1])
      token.dispose()
    }
    #expect(!event.isObserved)
  }
}

@Suite("A recorder's wait with a short timeout always ends")
struct RecorderShortTimeoutTests {
  /// The watchdog of a wait starts only once the wait is registered: a zero timeout throws
  /// `RecorderTimeout`, every time, and never leaves the wait hanging. Several tasks wait at
  /// once, so that a watchdog often runs before its wait could register.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aZeroTimeoutThrowsEveryTime() async {
    let rounds = 5_000
    let tasks = 4
    let outcome = await finishing(within: 240) { () -> (values: Int, idle: Int) in
      let event = SharedEvent<Int>()
      let queue = DispatchQueue(label: "zero.timeout")
      let recorder = event.record(on: queue)
      // The queue holds the one value notified, so every `waitUntilIdle` times out too.
      queue.suspend()
      event.notifyObservers(1)
      defer { queue.resume() }
      return await withTaskGroup(of: (Int, Int).self) { group in
        for _ in 0..<tasks {
          group.addTask {
            var values = 0
            var idle = 0
            for _ in 0..<rounds {
              do { try await recorder.waitForValues(count: 1, timeout: .zero) } catch is RecorderTimeout {
                values += 1
              } catch {}
              do { try await recorder.waitUntilIdle(timeout: .zero) } catch is RecorderTimeout {
                idle += 1
              } catch {}
            }
            return (values, idle)
          }
        }
        return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
      }
    }
    #expect(outcome?.values == rounds * tasks, "a wait with timeout .zero hung or did not throw")
    #expect(outcome?.idle == rounds * tasks, "waitUntilIdle(timeout: .zero) hung or did not throw")
  }
}
