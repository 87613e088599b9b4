import Testing
import TestSupport

import ObservableKit

/// The rows of the misuse table in the Contracts article that no other test pins.
@Suite("Misuse")
struct MisuseTests {
  @Test("Misuse: observing with the same closure twice makes two subscriptions")
  func sameClosureTwice() {
    let event = ObservableEvent<Int>()
    let log = ValueLog<Int>()
    let handler = log.handler
    let first = event.observe(handler)
    let second = event.observe(handler)
    event.notifyObservers(1)
    #expect(log.values == [1, 1])
    first.dispose()
    event.notifyObservers(2)
    #expect(log.values == [1, 1, 2])
    second.dispose()
  }

  @Test("Misuse: a notify inside a notify inside a notify is queued, FIFO, for everyone")
  func nestedNestedNotify() {
    let event = ObservableEvent<Int>()
    let first = ValueLog<Int>()
    let second = ValueLog<Int>()
    let a = event.observe { value in
      first.record(value)
      if value < 3 { event.notifyObservers(value + 1) }  // from a queued pass too
    }
    let b = event.observe { value in
      second.record(value)
      if value == 1 { event.notifyObservers(10) }
    }
    event.notifyObservers(1)
    #expect(first.values == [1, 2, 10, 3])
    #expect(second.values == first.values)
    a.dispose()
    b.dispose()
  }

  // Exit tests run where swift-testing can spawn a child process: macOS and Linux.
  #if os(macOS) || os(Linux)
  @Test("Misuse: skip or take with a negative count stops with a message")
  func negativeCounts() async {
    await #expect(processExitsWith: .failure) {
      _ = ObservableEvent<Int>().skip(-1)
    }
    await #expect(processExitsWith: .failure) {
      _ = ObservableEvent<Int>().take(-1)
    }
    await #expect(processExitsWith: .failure) {
      _ = SharedEvent<Int>().skip(-1)
    }
  }
  #endif
}
