/*:
 [Previous: keyed observers](@previous)

 # The thread-safe class and ObservableThread

 Every class of the `Observable` library may be used from any thread: adding, removing and
 notifying never wait for observers, and no lock is held while observers run.
 `ObservableThreadSafeClass` says so in its name. `ObservableThread` is an observable that
 runs its own `main()` on a thread of its own, and calls its observers there.

 [Next: a small app model](@next)
 */
import Foundation
import Observable

/*:
 The base classes are not `Sendable`, so that subclasses written as in Flowduino's README
 compile without warnings. A subclass shared across threads restates the conformance, and
 with it vouches for the state it adds: here, a count kept in a `Shared` box.
 */
protocol InventoryObserver: AnyObject {
  func stockChanged(item: String, count: Int)
}

final class Inventory: ObservableThreadSafeClass, @unchecked Sendable {
  private let counts = Shared<[String: Int]>([:])

  func add(_ amount: Int, of item: String) {
    let count = counts.withLock { counts in
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
  let calls = Shared(0)

  func stockChanged(item: String, count: Int) {
    calls.withLock { $0 += 1 }
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
