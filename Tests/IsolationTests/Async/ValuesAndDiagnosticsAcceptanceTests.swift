import Dispatch
import ObservableKit
import Testing
import TestSupport

// Acceptance checks, written as users write code: `values`, `Diagnostics`.

@Suite("QA acceptance: smaller ones")
struct QASmallerOnesAcceptanceTests {
  @Test func valuesSubscribesWhenItsIteratorIsMade() async {
    let event = SharedEvent<Int>()
    let values = event.values
    event.notifyObservers(0)  // before the iterator: documented as not heard
    var iterator = values.makeAsyncIterator()
    event.notifyObservers(1)
    event.notifyObservers(2)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
  }

  @Test func liveSubscriptionCountPrints() {
    let count: Int = Diagnostics.liveSubscriptionCount
    print("live subscriptions:", Diagnostics.liveSubscriptionCount)
    #expect(count >= 0)
  }
}
