/*:
 [Previous: owner-bound observation](@previous)

 # Delivery and async

 Handlers run synchronously on the notifying thread unless you ask otherwise.
 `observe(on: queue)` delivers on a dispatch queue, `observe(on: MainActor.shared)` on the
 main actor, and `values` turns any event or property into an async sequence.

 This page waits for the queues and tasks it starts before it prints their results, so it
 prints the same lines on every run.

 [Next: event hubs](@next)
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
 without `MainActor.assumeIsolated`. A value notified on the main thread is delivered at
 once, before `notifyObservers` returns, when nothing of the subscription is waiting: a label
 is up to date on the very next line.
 */
example("observe(on: MainActor.shared) on the main thread") {
  let scores = ObservableEvent<Int>()
  var label = ""
  let token = scores.observe(on: MainActor.shared) { score in
    label = "\(score) points"
  }
  scores.notifyObservers(10)
  print("right after notifyObservers, the label shows", label)
  token.dispose()
}

/*:
 A value notified on another thread goes through the main queue, which an app runs all the
 time; here `runMainQueue(until:)` runs it. A value that comes while others wait goes
 behind them, even on the main thread, so the label never goes back in time. Notifying from
 another thread takes a `SharedEvent`, the event made for sharing.
 */
example("observe(on: MainActor.shared) from another thread") {
  let scores = SharedEvent<Int>()
  var label = ""
  let token = scores.observe(on: MainActor.shared) { score in
    label = "\(score) points"
    print("the label shows \(label); on the main thread: \(Thread.isMainThread)")
  }
  let worker = makeQueue(named: "worker")
  let sent = DispatchSemaphore(value: 0)
  worker.async {
    scores.notifyObservers(20)
    sent.signal()
  }
  sent.wait()
  scores.notifyObservers(30)  // on the main thread, but 20 is waiting: 30 goes behind it
  print("before the main queue ran, the label shows \"\(label)\"")
  runMainQueue(until: { label == "30 points" })
  token.dispose()
}

/*:
 `values` is an async sequence. The subscription starts when a loop starts and ends when
 the loop ends or its task is cancelled. A property's sequence starts with its current value.
 The property lives in the task that loops over it.
 */
example("for await over a property") {
  runAsync {
    let level = Property(0)
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
  runAsync {
    let scores = ObservableEvent<Int>()
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

//: A bounded buffer drops values when the loop falls behind. `onDrop` hears each one, so a
//: drop is never silent: with `bufferingNewest`, the oldest value, evicted by a newer one.
example("Hearing what a bounded buffer drops") {
  runAsync {
    let position = Property(0)
    let dropped = SharedProperty<[Int]>([])  // Sendable: onDrop runs on the setting thread
    var latest = position.values(bufferingPolicy: .bufferingNewest(1)) { value in
      dropped.modify { $0.append(value) }
    }
      .makeAsyncIterator()
    print("first:", await latest.next() ?? -1)
    for value in 1...4 {
      position.value = value
    }
    print("next:", await latest.next() ?? -1, "dropped:", dropped.value)
  }
}

//: [Next: event hubs](@next)
