import Foundation
import Observable
import Testing
import TestSupport

// The examples of Flowduino Observable's README (seed 000), as the README writes them. Only
// plain typos are fixed: `init()` calls `start()` after `super.init()`, `setValue(key:value:)`
// gets its `value:` label, `TestKeyedObserverClass()` its parentheses. `print` goes to a
// transcript so that the tests can check what the README says is printed.

/// Collects what the examples print.
let transcript = Guarded<[String]>([])

private func print(_ line: String) {
  transcript.withLock { $0.append(line) }
}

// MARK: ObservableClass

/// Protocol defining what Methods the Obverable Class can invoke on any Observer
protocol DummyObservable: AnyObject { // It's extremely important that this Protocol be constrained to AnyObject
  func onFooChanged(oldValue: String, newValue: String)
  func onBarChanged(oldValue: String, newValue: String)
}

/// Class that can be Observed
class Dummy: ObservableClass {
  private var _foo: String = "Hello"
  public var foo: String {
    get {
      return _foo
    }
    set {
      // Invoke onFooChanged for all current Observers
      withObservers { (observer: DummyObservable) in
        observer.onFooChanged(oldValue: _foo, newValue: newValue)
      }
      _foo = newValue
      objectWillChange.send() // This is for the standard ObservableObject behaviour (both are supported together)
    }
  }

  private var _bar: String = "World"
  public var bar: String {
    get {
      return _bar
    }
    set {
      // Invoke onBarChanged for all current Observers
      withObservers { (observer: DummyObservable) in
        observer.onBarChanged(oldValue: _bar, newValue: newValue)
      }
      _bar = newValue
      objectWillChange.send() // This is for the standard ObservableObject behaviour (both are supported together)
    }
  }
}

class DummyObserver: DummyObservable {
  /* Implementations for DummyObservable */
  func onFooChanged(oldValue: String, newValue: String) {
    print("Foo Changed from \(oldValue) to \(newValue)")
  }

  func onBarChanged(oldValue: String, newValue: String) {
    print("Bar Changed from \(oldValue) to \(newValue)")
  }
}

// MARK: ObservableThreadSafeClass ("exactly the same", with the other base class)

class ThreadSafeDummy: ObservableThreadSafeClass {
  private var _foo: String = "Hello"
  public var foo: String {
    get {
      return _foo
    }
    set {
      withObservers { (observer: DummyObservable) in
        observer.onFooChanged(oldValue: _foo, newValue: newValue)
      }
      _foo = newValue
      notifyChange()
    }
  }
}

// MARK: ObservableThread

protocol RandomNumberObserver: AnyObject {
  func onRandomNumber(_ randomNumber: Int)
}

class RandomNumberObservableThread: ObservableThread {
  let interval: TimeInterval

  init(interval: TimeInterval = 60.00) {
    self.interval = interval
    super.init()
    self.start() // This will start the thread on creation. You aren't required to do it this way, I'm just choosing to!
  }

  public override func main() { // We must override this method
    while self.isExecuting { // This creates a loop that will continue for as long as the Thread is running!
      let randomNumber = Int.random(in: -9000..<9001) // We'll generate a random number between -9000 and +9000
      // Now let's notify all of our Observers!
      withObservers { (observer: RandomNumberObserver) in
        observer.onRandomNumber(randomNumber)
      }
      Self.sleep(forTimeInterval: interval) // This will cause our Thread to sleep for 60 seconds
    }
  }
}

class RandomNumberObserverClass: RandomNumberObserver {
  let received = Guarded<[Int]>([])
  let arrived = DispatchSemaphore(value: 0)
  let threads = Guarded<Set<UInt>>([])

  public func onRandomNumber(_ randomNumber: Int) {
    print("Random Number is: \(randomNumber)")
    received.withLock { $0.append(randomNumber) }
    threads.withLock { _ = $0.insert(currentThreadID()) }
    arrived.signal()
  }
}

// MARK: Keyed observation

protocol TestKeyedObservable: AnyObject {
  func onValueChanged(key: String, oldValue: String, newValue: String)
}

class TestKeyedObservableClass: KeyedObservableClass<String> {
  private var keyValues: [String: String] = ["A": "Hello", "B": "Foo", "C": "Ping"]

  func setValue(key: String, value: String) {
    withKeyedObservers(key: key) { (key, observer: TestKeyedObservable) in
      observer.onValueChanged(key: key, oldValue: self.keyValues[key]!, newValue: value)
    }
    self.keyValues[key] = value
  }
}

class TestKeyedObserverClass: TestKeyedObservable {
  public var keyValues: [String: String] = ["A": "Hello", "B": "Foo"]

  func onValueChanged(key: String, oldValue: String, newValue: String) {
    keyValues[key] = newValue
  }
}

// MARK: Two observer protocols

protocol ObserverProtocolA: AnyObject {
  func doSomethingForProtocolA()
}

protocol ObserverProtocolB: AnyObject {
  func doSomethingForProtocolB()
}

class TwoProtocolObservable: ObservableClass {
  func notifyA() {
    withObservers { (observer: ObserverProtocolA) in
      observer.doSomethingForProtocolA()
    }
  }

  func notifyB() {
    withObservers { (observer: ObserverProtocolB) in
      observer.doSomethingForProtocolB()
    }
  }
}

final class ObserverOfA: ObserverProtocolA {
  func doSomethingForProtocolA() { print("A") }
}

final class ObserverOfBoth: ObserverProtocolA, ObserverProtocolB {
  func doSomethingForProtocolA() { print("both: A") }
  func doSomethingForProtocolB() { print("both: B") }
}

// MARK: Tests

/// The README examples print to one transcript, so they run one at a time.
@Suite("Flowduino README examples (seed 000)", .serialized)
struct FlowduinoReadmeExampleTests {
  init() {
    transcript.withLock { $0 = [] }
  }

  @Test("ObservableClass: Dummy and DummyObserver")
  func observableClass() {
    // Playground Code to use the above
    let observable = Dummy() // This is the Object that we can Observe
    let observer = DummyObserver() // This is an Object that will Observe the Observable

    observable.addObserver(observer) // This is what registers the Observer with the Observable!
    observable.foo = "Test 1"
    observable.bar = "Test 2"

    #expect(transcript.value == ["Foo Changed from Hello to Test 1", "Bar Changed from World to Test 2"])
  }

  @Test("ObservableThreadSafeClass: the same, and the old value is read before the change")
  func observableThreadSafeClass() {
    let observable = ThreadSafeDummy()
    let observer = DummyObserver()
    observable.addObserver(observer)

    // Flowduino delivered this asynchronously, after `_foo` changed: "from World to World".
    observable.foo = "Bar"
    observable.foo = "World"
    #expect(transcript.value == ["Foo Changed from Hello to Bar", "Foo Changed from Bar to World"])
  }

  @Test("ObservableThread: RandomNumberObservableThread calls its observers on its thread")
  func observableThread() throws {
    let myThread = RandomNumberObservableThread(interval: 0.005)
    let myObserver = RandomNumberObserverClass()
    myThread.addObserver(myObserver)

    for _ in 0..<3 { myObserver.arrived.wait() }
    myThread.cancel()
    myThread.waitUntilFinished()

    let numbers = myObserver.received.value
    #expect(numbers.count >= 3)
    #expect(numbers.allSatisfy { (-9000...9000).contains($0) })
    #expect(myObserver.threads.value.count == 1, "every call on the one thread")
    #expect(!myObserver.threads.value.contains(currentThreadID()))
    #expect(transcript.value.allSatisfy { $0.hasPrefix("Random Number is: ") })
    #expect(myThread.isFinished)
  }

  @Test("ObservableThread: cancel stops the README thread, 60-second sleep and all")
  func observableThreadCancelsItsSleep() {
    let myThread = RandomNumberObservableThread() // sleeps 60 seconds between numbers
    let myObserver = RandomNumberObserverClass()
    myThread.addObserver(myObserver)
    myThread.cancel()
    myThread.waitUntilFinished() // would take a minute if the sleep were not cut short
    #expect(myThread.isFinished)
  }

  @Test("Keyed observation: the TestKeyedObservableClass walkthrough")
  func keyedWalkthrough() {
    let observable = TestKeyedObservableClass() // Creates our Observable
    let observer = TestKeyedObserverClass() // Creates a single Observer instance

    observable.addKeyedObserver(key: "A", observer)
    observable.addKeyedObserver(key: "B", observer)
    observable.addKeyedObserver(keys: ["A", "B"], observer)
    observable.addKeyedObserver(keys: Array(observer.keyValues.keys), observer)
    observable.addKeyedObserver(key: "Foo", observer)

    func printed() -> [String] {
      observer.keyValues.sorted { $0.key < $1.key }.map { (key, value) in
        "Key: '\(key)' has a value of '\(value)'"
      }
    }
    #expect(printed() == ["Key: 'A' has a value of 'Hello'", "Key: 'B' has a value of 'Foo'"])

    observable.setValue(key: "A", value: "World")
    #expect(printed() == ["Key: 'A' has a value of 'World'", "Key: 'B' has a value of 'Foo'"])

    // The observer does not observe "C", so it is not told.
    observable.setValue(key: "C", value: "Pong")
    #expect(printed() == ["Key: 'A' has a value of 'World'", "Key: 'B' has a value of 'Foo'"])
  }

  @Test("Every overload of the README's list, labelled and not")
  func overloads() {
    let observable = ObservableClass()
    let keyedObservable = TestKeyedObservableClass()
    let (myObserver, myObserver1, myObserver2, myObserver3) = (Counter(), Counter(), Counter(), Counter())
    let myKeyedObserver = Counter()
    let (myKeyedObserver1, myKeyedObserver2, myKeyedObserver3) = (Counter(), Counter(), Counter())
    let all = [myKeyedObserver, myKeyedObserver1, myKeyedObserver2, myKeyedObserver3]

    observable.addObserver(myObserver)
    observable.addObserver([myObserver1, myObserver2, myObserver3])
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect([myObserver, myObserver1, myObserver2, myObserver3].map(\.count) == [1, 1, 1, 1])
    observable.removeObserver(myObserver)
    observable.removeObserver([myObserver1, myObserver2, myObserver3])
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect([myObserver, myObserver1, myObserver2, myObserver3].map(\.count) == [1, 1, 1, 1])

    keyedObservable.addKeyedObserver("MyKey", myKeyedObserver)
    keyedObservable.addKeyedObserver(["Key1", "Key2", "Key3"], myKeyedObserver)
    keyedObservable.addKeyedObserver("MyKey", [myKeyedObserver1, myKeyedObserver2, myKeyedObserver3])
    keyedObservable.addKeyedObserver(["Key1", "Key2", "Key3"], [myKeyedObserver1, myKeyedObserver2, myKeyedObserver3])
    keyedObservable.withKeyedObservers(keys: ["MyKey", "Key1", "Key2", "Key3"]) { (_, observer: Ping) in
      observer.ping("")
    }
    #expect(all.map(\.count) == [4, 4, 4, 4])

    keyedObservable.removeKeyedObserver("MyKey", myKeyedObserver)
    keyedObservable.removeKeyedObserver(["Key1", "Key2"], myKeyedObserver)
    keyedObservable.removeKeyedObserver("MyKey", [myKeyedObserver1, myKeyedObserver2])
    keyedObservable.removeKeyedObserver(["Key1", "Key2", "Key3"], [myKeyedObserver1, myKeyedObserver3])
    keyedObservable.withKeyedObservers(keys: ["MyKey", "Key1", "Key2", "Key3"]) { (_, observer: Ping) in
      observer.ping("")
    }
    // Left: myKeyedObserver for Key3; myKeyedObserver2 for Key1–3; myKeyedObserver3 for MyKey.
    #expect(all.map(\.count) == [5, 4, 7, 5])

    // The labelled spellings are the same operations.
    keyedObservable.addKeyedObserver(key: "L", myKeyedObserver)
    keyedObservable.addKeyedObserver(key: "L", [myKeyedObserver1])
    keyedObservable.addKeyedObserver(keys: ["M"], myKeyedObserver2)
    keyedObservable.addKeyedObserver(keys: ["M"], [myKeyedObserver3])
    keyedObservable.withKeyedObservers(keys: ["L", "M"]) { (_, observer: Ping) in observer.ping("") }
    #expect(all.map(\.count) == [6, 5, 8, 6])
    keyedObservable.removeKeyedObserver(key: "L", myKeyedObserver)
    keyedObservable.removeKeyedObserver(key: "L", [myKeyedObserver1])
    keyedObservable.removeKeyedObserver(keys: ["M"], myKeyedObserver2)
    keyedObservable.removeKeyedObserver(keys: ["M"], [myKeyedObserver3])
    keyedObservable.withKeyedObservers(keys: ["L", "M"]) { (_, observer: Ping) in observer.ping("") }
    #expect(all.map(\.count) == [6, 5, 8, 6])
  }

  @Test("One observable, any number of observer protocols")
  func twoProtocols() {
    let observable = TwoProtocolObservable()
    let (onlyA, both) = (ObserverOfA(), ObserverOfBoth())
    observable.addObserver([onlyA, both] as [AnyObject])
    observable.addObserver([onlyA, both]) // a mixed array literal works without the cast

    observable.notifyA()
    observable.notifyB()
    #expect(transcript.value == ["A", "both: A", "both: B"])
  }
}
