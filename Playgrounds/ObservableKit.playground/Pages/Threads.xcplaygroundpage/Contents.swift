/*:
 [Previous: keyed observers](@previous)

 # Threads

 `ObservableEvent` and `Property` stay in the isolation domain that made them, and the
 compiler keeps them there. To notify from one thread and observe from another, use their
 `Sendable` siblings, `SharedEvent` and `SharedProperty`. A handler given to their `observe`
 keeps the isolation of the code that registers it:

 - registered on the **main actor** (as the code of this page is), it runs on the main
   actor: at once when the value comes on the main thread and nothing of the subscription is
   waiting, otherwise through the main queue, in order, on every OS version;
 - registered on **another actor**, it is always enqueued to that actor;
 - registered with **`observeNonisolated`**, it runs on the notifying thread, before
   `notifyObservers` returns.

 The `Observable` library's classes may be used from any thread too: see
 `ObservableThreadSafeClass` and `ObservableThread` below.

 [Next: a small app model](@next)
 */
import Foundation
import Observable  // brings ObservableKit along

//: An actor that follows a download. Its handler runs on the actor, so it may change the
//: actor's state without a lock.
actor DownloadLog {
  private(set) var heard: [Int] = []
  private let bag = DisposeBag()
  private let finished = DispatchSemaphore(value: 0)

  func follow(_ progress: SharedEvent<Int>) {
    progress.observe { percent in
      self.heard.append(percent)  // on the actor: no await, no lock
      if percent == 100 { self.finished.signal() }
    }.disposed(by: bag)
  }

  /// Blocks the calling thread until the actor has heard 100%.
  nonisolated func waitUntilFinished() {
    finished.wait()
  }
}

/*:
 One `SharedEvent`, three handlers. The worker's 50% reaches the main-actor handler through
 the main queue; the main thread's 100% reaches it at once. The
 actor hears both, later.
 */
example("Where each handler runs") {
  let progress = SharedEvent<Int>()  // Sendable: any thread may notify it
  let bag = DisposeBag()
  var shown: [Int] = []  // main-actor state: a plain local
  progress.observe { percent in
    shown.append(percent)
    print("main-actor handler: \(percent)%, on the main thread: \(Thread.isMainThread)")
  }.disposed(by: bag)
  progress.observeNonisolated { percent in
    let place = currentQueueName.map { "the \($0) queue" } ?? "the main thread"
    print("nonisolated handler: \(percent)%, on \(place)")
  }.disposed(by: bag)
  let log = DownloadLog()
  runAsync { await log.follow(progress) }

  let worker = makeQueue(named: "worker")
  let sent = DispatchSemaphore(value: 0)
  worker.async {
    progress.notifyObservers(50)
    sent.signal()
  }
  sent.wait()
  print("the main-actor handler waits for the main queue; shown:", shown)
  runMainQueue(until: { shown == [50] })

  progress.notifyObservers(100)  // on the main thread, with nothing waiting: at once
  print("notifyObservers has returned; shown:", shown)
  log.waitUntilFinished()
  runAsync { print("the actor heard", await log.heard) }
}

/*:
 A `SharedProperty` may be set from any thread. `modify` is atomic: no set from another
 thread is lost between its read and its write. Each observer's calls never overlap, never
 go back in time, and end on the final value.
 */
example("A SharedProperty set from eight threads") {
  let downloaded = SharedProperty(0)
  var shown = 0
  let token = downloaded.observe { shown = $0 }  // on the main actor
  DispatchQueue.concurrentPerform(iterations: 8) { _ in
    for _ in 0..<100 {
      downloaded.modify { $0 += 1 }
    }
  }
  runMainQueue(until: { shown == downloaded.value })
  print("downloaded: \(downloaded.value), shown: \(shown)")
  token.dispose()
}

/*:
 Every class of the `Observable` library may be used from any thread: adding, removing and
 notifying never wait for observers, and no lock is held while observers run.
 `ObservableThreadSafeClass` says so in its name.

 The base classes are not `Sendable`, so that subclasses written as in Flowduino's README
 compile without warnings. A subclass shared across threads restates the conformance, and
 with it vouches for the state it adds: here, counts kept in a `SharedProperty`, whose
 `modify` is atomic.
 */
protocol InventoryObserver: AnyObject {
  func stockChanged(item: String, count: Int)
}

final class Inventory: ObservableThreadSafeClass, @unchecked Sendable {
  private let counts = SharedProperty<[String: Int]>([:])

  func add(_ amount: Int, of item: String) {
    let count = counts.modify { counts in
      counts[item, default: 0] += amount
      return counts[item]!
    }
    withObservers { (observer: InventoryObserver) in
      observer.stockChanged(item: item, count: count)
    }
  }

  func count(of item: String) -> Int {
    counts.value[item] ?? 0
  }
}

final class StockCounter: InventoryObserver, Sendable {
  let calls = SharedProperty(0)

  func stockChanged(item: String, count: Int) {
    calls.modify { $0 += 1 }
  }
}

example("Eight threads add observers and notify at once") {
  let inventory = Inventory()
  let counters = (0..<8).map { _ in StockCounter() }
  DispatchQueue.concurrentPerform(iterations: counters.count) { index in
    inventory.addObserver(counters[index])
    for _ in 0..<100 {
      inventory.add(1, of: "apples")
    }
  }
  print("apples:", inventory.count(of: "apples"))

  // Which notifications each counter heard depends on when its thread got going; once every
  // thread is done, one more pass reaches all eight.
  let before = counters.map { $0.calls.value }
  inventory.add(0, of: "apples")
  let heardLastPass = zip(counters, before).filter { $0.calls.value == $1 + 1 }.count
  print("counters that heard the last pass:", heardLastPass)
}

/*:
 `ObservableThread` is the thread example of Flowduino's README. Its `main()` loops while
 the thread is executing; `cancel()` ends the loop and wakes the 60-second sleep at once.
 The observer is added before `start()`, so that it hears the first number.
 */
protocol RandomNumberObserver: AnyObject {
  func onRandomNumber(_ randomNumber: Int)
}

class RandomNumberObservableThread: ObservableThread {
  override func main() {
    while isExecuting {
      let randomNumber = Int.random(in: -9000..<9001)
      withObservers { (observer: RandomNumberObserver) in
        observer.onRandomNumber(randomNumber)
      }
      Self.sleep(forTimeInterval: 60)
    }
  }
}

final class RandomNumberObserverClass: RandomNumberObserver, Sendable {
  let heard = DispatchSemaphore(value: 0)

  func onRandomNumber(_ randomNumber: Int) {
    print("a number between -9000 and 9000: \((-9000...9000).contains(randomNumber))")
    print("called on the main thread: \(Thread.isMainThread)")
    heard.signal()
  }
}

example("ObservableThread") {
  let thread = RandomNumberObservableThread()
  let observer = RandomNumberObserverClass()
  thread.addObserver(observer)
  thread.start()
  observer.heard.wait()  // until the first number has been observed
  thread.cancel()  // ends the loop; the sleep returns early
  thread.waitUntilFinished()
  print("finished: \(thread.isFinished), cancelled: \(thread.isCancelled)")
}

//: [Next: a small app model](@next)
