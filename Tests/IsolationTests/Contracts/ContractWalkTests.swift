import Dispatch
import ObservableKit
import Testing
import TestSupport

/// Sentences of the Contracts article's Isolation and Delivery targets sections that had no
/// test of their own when the article was walked sentence by sentence.
@Suite("Contract walk")
struct ContractWalkTests {
  @Test("Contract: observe(on: queue) delivers asynchronously even when the notifying thread runs that queue")
  func queueIsAsyncOnItsOwnQueue() {
    let queue = DispatchQueue(label: "walk")
    let event = SharedEvent<Int>()
    let heard = ValueLog<Int>()
    let token = event.observe(on: queue, heard.handler)
    let heardBeforeReturn = Guarded(-1)
    queue.sync {
      event.notifyObservers(1)
      heardBeforeReturn.value = heard.count
    }
    queue.sync {}
    #expect(heardBeforeReturn.value == 0)
    #expect(heard.values == [1])
    token.dispose()
  }

  @Test("Contract: a dispose() made on the queue that runs the calls, from inside the handler, stops them at once")
  func queueDisposeFromInsideHandler() {
    let queue = DispatchQueue(label: "walk")
    let event = SharedEvent<Int>()
    let heard = ValueLog<Int>()
    let token = Guarded<(any Disposable)?>(nil)
    queue.sync {
      // Registered and notified on the queue: every value waits until this block returns.
      token.value = event.observe(on: queue) { value in
        heard.record(value)
        token.value?.dispose()
      }
      for value in 1...5 { event.notifyObservers(value) }
    }
    queue.sync {}
    #expect(heard.values == [1])
    #expect(token.value?.isDisposed == true)
  }

  @Test("Contract: a shared handler that disposes itself inside its call hears nothing more, not even what was notified during the call")
  func isolatedDisposeFromInsideHandler() {
    let event = SharedEvent<Int>()
    let heard = ValueLog<Int>()
    let token = Guarded<(any Disposable)?>(nil)
    let nested = Guarded(false)
    token.value = event.observe { value in
      heard.record(value)
      if value == 1 {
        // Values notified during this call wait behind it; disposing drops them.
        nested.value = true
        event.notifyObservers(2)
        event.notifyObservers(3)
        token.value?.dispose()
      }
    }
    event.notifyObservers(1)
    event.notifyObservers(4)
    #expect(nested.value)
    #expect(heard.values == [1])
    #expect(token.value?.isDisposed == true)
  }

  @Test("Contract: each shared notification reaches the subscriptions in subscription order, whatever their form")
  func sharedSubscriptionOrder() {
    let event = SharedEvent<Int>()
    let order = ValueLog<String>()
    let tokens = [
      event.observeNonisolated { _ in order.record("a") },
      event.observe { _ in order.record("b") },
      event.observeNonisolated { _ in order.record("c") },
      event.map { $0 }.observe { _ in order.record("d") },
    ]
    event.notifyObservers(1)
    tokens[1].dispose()
    event.notifyObservers(2)
    #expect(order.values == ["a", "b", "c", "d", "a", "c", "d"])
    tokens.forEach { $0.dispose() }
  }

  @Test("Contract: a main-actor handler disposed from inside its call on the main actor hears none of the values that wait")
  @MainActor
  func mainActorDisposeFromInsideHandler() async {
    let event = SharedEvent<Int>()
    let heard = ValueLog<Int>()
    let barrier = Tally()
    let token = Guarded<(any Disposable)?>(nil)
    token.value = event.observe { value in
      heard.record(value)
      token.value?.dispose()
    }
    let after = event.observe { _ in barrier.increment() }
    withWatchdog("notify from another thread") { for value in 1...3 { event.notifyObservers(value) } }
    await waitUntil { barrier.value == 3 }
    #expect(heard.values == [1])
    #expect(token.value?.isDisposed == true)
    after.dispose()
  }
}
