import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Async bridge")
struct AsyncTests {
  @Test("for await over an event's values; ending the loop ends the subscription")
  func eventValues() async {
    let event = ObservableEvent<Int>()
    let values = event.values
    #expect(!event.isObserved, "the subscription starts with the loop")
    let started = Guarded(false)
    let feeder = Task.detached {
      await Self.waitUntil { event.isObserved }
      started.value = true
      for value in 1...3 { event.notifyObservers(value) }
    }
    var received: [Int] = []
    for await value in values {
      received.append(value)
      if value == 3 { break }
    }
    await feeder.value
    #expect(started.value)
    #expect(received == [1, 2, 3])
    #expect(!event.isObserved, "the loop ended, though `values` is still alive")
  }

  @Test("a property's values start with the current value")
  func propertyValues() async {
    let property = Property(10)
    var iterator = property.values.makeAsyncIterator()
    #expect(await iterator.next() == 10)
    property.value = 11
    #expect(await iterator.next() == 11)
  }

  @Test("cancelling the task ends the subscription; nothing stays alive")
  func cancellation() async {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Tracked>()
    let task = Task {
      for await value in event.values { value.touch() }
    }
    await Self.waitUntil { event.isObserved }
    event.notifyObservers(tracker.make())
    task.cancel()
    await task.value
    await Self.waitUntil { !event.isObserved }
    #expect(!event.isObserved)
    #expect(tracker.liveCount == 0)
  }

  @Test("bufferingNewest(1) keeps only the latest value")
  func bufferingPolicy() async {
    let property = Property(0)
    var iterator = property.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
    for value in 1...5 { property.value = value }
    #expect(await iterator.next() == 5)
  }

  /// Yields until `condition` holds (bounded), for effects that complete on another task.
  private static func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<100_000 where !condition() { await Task.yield() }
  }
}
