/*:
 [Previous: owner-bound observation](@previous)

 # Delivery and async

 Handlers run synchronously on the notifying thread unless you ask otherwise.
 `observe(on: queue)` delivers on a dispatch queue, `observe(on: MainActor.shared)` on the
 main actor, and `values` turns any event or property into an async sequence.

 This page waits for the queues and tasks it starts before it prints their results, so it
 prints the same lines on every run.

 [Next: protocol observers](@next)
 */
import Foundation
import ObservableKit

/*:
 Delivery on a queue is always asynchronous, even when the notifying thread is running that
 queue, and keeps the order of the values.
 */
example("observe(on: queue)") {
  let scores = ObservableEvent<Int>()
  let saving = makeQueue(named: "saving")
  let token = scores.observe(on: saving) { score in
    print("saved \(score) on the \(currentQueueName ?? "?") queue")
  }
  saving.sync {
    scores.notifyObservers(1)
    scores.notifyObservers(2)
    print("notifyObservers returned before the queue ran the handler")
  }
  saving.sync {}  // wait until the queue has run everything queued so far
  token.dispose()
}

//: Once `dispose()` returns, no call starts, not even for values already queued.
example("Disposing drops queued values") {
  let scores = ObservableEvent<Int>()
  let saving = makeQueue(named: "saving")
  let token = scores.observe(on: saving) { score in
    print("saved", score)
  }
  saving.sync {
    scores.notifyObservers(1)  // queued behind the block that is running
    token.dispose()
  }
  saving.sync {}
  print("nothing was saved")
}

/*:
 `observe(on: MainActor.shared)` takes a `@MainActor` handler, so it may touch UI state
 without `MainActor.assumeIsolated`. Values are delivered through the main queue, which an
 app runs all the time; here `runMainQueue(until:)` runs it until the values arrived.
 */
example("observe(on: MainActor.shared)") {
  let scores = ObservableEvent<Int>()
  let delivered = Shared(0)
  let token = scores.observe(on: MainActor.shared) { score in
    print("the label shows \(score); on the main thread: \(Thread.isMainThread)")
    delivered.withLock { $0 += 1 }
  }
  scores.notifyObservers(10)
  scores.notifyObservers(20)
  print("delivered before the main queue ran:", delivered.value)
  runMainQueue(until: { delivered.value == 2 })
  token.dispose()
}

/*:
 `values` is an async sequence. The subscription starts when a loop starts and ends when
 the loop ends or its task is cancelled. A property's sequence starts with its current value.
 */
example("for await over a property") {
  let level = Property(0)
  runAsync {
    for await value in level.values {
      print("level", value)
      if value < 3 {
        level.value = value + 1
      } else {
        break
      }
    }
    print("the loop has ended; observers:", level.observerCount)
  }
}

//: An iterator subscribes when it is made. By default every value is buffered until it is
//: read; `bufferingNewest(1)` keeps only the latest.
example("Buffering") {
  let scores = ObservableEvent<Int>()
  runAsync {
    var everyScore = scores.values.makeAsyncIterator()
    var latestScore = scores.values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
    for score in [10, 20, 30] {
      scores.notifyObservers(score)
    }
    var all: [Int] = []
    for _ in 1...3 {
      if let score = await everyScore.next() { all.append(score) }
    }
    print("every score:", all)
    print("latest score:", await latestScore.next() ?? 0)
  }
}

//: [Next: protocol observers](@next)
