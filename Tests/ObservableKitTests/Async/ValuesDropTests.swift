import Testing
import TestSupport

@testable import ObservableKit

/// `values(bufferingPolicy:onDrop:)`: a bounded buffer never drops a value silently.
@Suite("Async drops")
struct ValuesDropTests {
  @Test("Contract: values(bufferingPolicy: .bufferingNewest(n), onDrop:) reports each evicted value, oldest first")
  func newestReportsEvicted() async {
    let property = Property(0)
    let dropped = ValueLog<Int>()
    var iterator = property.values(bufferingPolicy: .bufferingNewest(2), onDrop: dropped.handler)
      .makeAsyncIterator()
    #expect(await iterator.next() == 0)
    for value in 1...5 { property.value = value }
    #expect(dropped.values == [1, 2, 3], "reported inside the sets, before the loop runs again")
    #expect(await iterator.next() == 4)
    #expect(await iterator.next() == 5)
  }

  @Test("Contract: values(bufferingPolicy: .bufferingOldest(n), onDrop:) reports each new value that did not fit")
  func oldestReportsRejected() async {
    let property = Property(0)
    let dropped = ValueLog<Int>()
    var iterator = property.values(bufferingPolicy: .bufferingOldest(2), onDrop: dropped.handler)
      .makeAsyncIterator()
    #expect(await iterator.next() == 0)
    for value in 1...5 { property.value = value }
    #expect(dropped.values == [3, 4, 5])
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
  }

  @Test("Contract: an unbounded buffer drops nothing, and onDrop is never called")
  func unboundedDropsNothing() async {
    let property = Property(0)
    let dropped = ValueLog<Int>()
    var iterator = property.values(bufferingPolicy: .unbounded, onDrop: dropped.handler).makeAsyncIterator()
    #expect(await iterator.next() == 0)
    for value in 1...100 { property.value = value }
    var received: [Int] = []
    for _ in 1...100 { received.append(await iterator.next()!) }
    #expect(received == Array(1...100))
    #expect(dropped.values.isEmpty)
  }

  @Test("Contract: every value is either delivered or reported dropped, with notifications from several threads")
  func nothingLostUnderRace() async {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let dropped = ValueLog<Int>()
    // The prepended value proves the subscription exists before the race starts.
    var iterator = event.prepend(-1).values(bufferingPolicy: .bufferingNewest(8), onDrop: dropped.handler)
      .makeAsyncIterator()
    #expect(await iterator.next() == -1)
    race(threads: 2) { index in
      for value in 1...500 { event.notifyObservers(index * 1_000 + value) }
    }
    var delivered: [Int] = []
    for _ in 0..<(1_000 - dropped.count) { delivered.append(await iterator.next()!) }
    #expect(delivered.count == 8)
    #expect(Set(delivered + dropped.values).count == 1_000, "no value both delivered and dropped, none lost")
  }
}
