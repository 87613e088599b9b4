/*:
 [Previous: protocol observers](@previous)

 # Keyed observers

 A keyed observable lets each observer register for the keys it cares about, and calls it
 only for changes to those keys. `KeyedObservableClass<String>` has `String` keys; the key
 type is checked by the compiler.

 [Next: threads](@next)
 */
import Observable

//: The keyed example of Flowduino's README.
protocol TestKeyedObservable: AnyObject {
  func onValueChanged(key: String, oldValue: String, newValue: String)
}

class TestKeyedObservableClass: KeyedObservableClass<String> {
  private var keyValues = ["A": "Hello", "B": "Foo", "C": "Ping"]

  func setValue(key: String, value: String) {
    withKeyedObservers(key: key) { (key, observer: TestKeyedObservable) in
      observer.onValueChanged(key: key, oldValue: keyValues[key]!, newValue: value)
    }
    keyValues[key] = value
  }
}

class TestKeyedObserverClass: TestKeyedObservable {
  var keyValues = ["A": "Hello", "B": "Foo"]

  func onValueChanged(key: String, oldValue: String, newValue: String) {
    keyValues[key] = newValue
  }

  func printValues() {
    for key in keyValues.keys.sorted() {
      print("Key: '\(key)' has a value of '\(keyValues[key]!)'")
    }
  }
}

example("Observers hear only the keys they registered for") {
  let observable = TestKeyedObservableClass()
  let observer = TestKeyedObserverClass()
  observable.addKeyedObserver(keys: Array(observer.keyValues.keys), observer)
  observer.printValues()

  observable.setValue(key: "A", value: "World")
  observer.printValues()

  observable.setValue(key: "C", value: "Pong")  // the observer did not register for "C"
  observer.printValues()
}

/*:
 Every overload of Flowduino's README exists, with and without the `key:` and `keys:`
 labels, for one observer or several, and the same for `removeKeyedObserver`.
 */
protocol StockObserver: AnyObject {
  func stockChanged(item: String, count: Int)
}

final class Shelf: StockObserver {
  let name: String

  init(_ name: String) {
    self.name = name
  }

  func stockChanged(item: String, count: Int) {
    print("\(name) hears: \(count) \(item)")
  }
}

final class Warehouse: KeyedObservableClass<String> {
  func set(_ item: String, to count: Int) {
    withKeyedObservers(key: item) { (item, observer: StockObserver) in
      observer.stockChanged(item: item, count: count)
    }
  }
}

example("The overloads, and the order of a key's observers") {
  let warehouse = Warehouse()
  let (front, back, office) = (Shelf("front"), Shelf("back"), Shelf("office"))
  warehouse.addKeyedObserver("apples", back)
  warehouse.addKeyedObserver(["apples", "pears"], front)
  warehouse.addKeyedObserver(key: "pears", [office, back])
  warehouse.set("apples", to: 3)  // in the order they registered for "apples"
  warehouse.set("pears", to: 5)

  warehouse.removeKeyedObserver("apples", back)
  warehouse.set("apples", to: 2)
}

/*:
 Keyed observers are observers of the object too: `withObservers` reaches each of them once,
 however many keys it has. `removeObserver` ends all of an observer's subscriptions;
 `removeKeyedObserver` ends one key's.
 */
example("Keyed observers are observers") {
  let warehouse = Warehouse()
  let (front, back) = (Shelf("front"), Shelf("back"))
  warehouse.addKeyedObserver(keys: ["apples", "pears", "plums"], front)
  warehouse.addKeyedObserver(key: "plums", back)
  warehouse.withObservers { (shelf: Shelf) in
    print("withObservers reaches \(shelf.name)")
  }

  warehouse.removeObserver(front)
  warehouse.set("plums", to: 9)
}

//: `withKeyedObservers(keys:)` visits each key once, even if the list repeats it.
example("Several keys in one pass") {
  let warehouse = Warehouse()
  let front = Shelf("front")
  warehouse.addKeyedObserver(keys: ["apples", "pears"], front)
  warehouse.withKeyedObservers(keys: ["pears", "apples", "pears"]) { (item, shelf: StockObserver) in
    shelf.stockChanged(item: item, count: 0)
  }
}

//: [Next: threads](@next)
