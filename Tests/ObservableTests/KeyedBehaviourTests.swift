import Observable
import Testing
import TestSupport

/// The keyed contract, run against the three keyed families.
@Suite("Keyed observer behaviour")
struct KeyedBehaviourTests {
  @Test("Keyed passes reach only the key's observers, in the order they registered for it", arguments: KeyedFamily.allCases)
  func perKeyOrder(family: KeyedFamily) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b, c) = (Recorder("a", log: log), Recorder("b", log: log), Recorder("c", log: log))
    observable.addObserver([a, b, c])
    observable.addKeyedObserver(key: "K", c)
    observable.addKeyedObserver(key: "K", a)
    observable.addKeyedObserver(key: "L", b)

    observable.withKeyedObservers(key: "K") { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == ["K c", "K a"])
    observable.withKeyedObservers(key: "L") { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == ["L b"])
    observable.withKeyedObservers(key: "nobody") { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == [])
    observable.withKeyedObservers(keys: ["L", "K", "L"]) { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == ["L b", "K c", "K a"], "a key listed twice is visited once")
  }

  @Test("Keyed observers are also plain observers, reached once", arguments: KeyedFamily.allCases)
  func keyedAreAlsoPlain(family: KeyedFamily) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (plain, keyed) = (Recorder("plain", log: log), Recorder("keyed", log: log))
    observable.addObserver(plain)
    observable.addKeyedObserver(keys: ["A", "B", "C"], keyed)

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["plain", "keyed"])
    #expect(census(observable) == .init(observers: 2, keys: 3, subscriptions: 5))
  }

  @Test("Adding a keyed observer twice is one subscription", arguments: KeyedFamily.allCases)
  func idempotentKeyedAdd(family: KeyedFamily) {
    let observable = family.make()
    let counter = Counter()
    observable.addKeyedObserver(key: "A", counter)
    observable.addKeyedObserver("A", counter)
    observable.addKeyedObserver(keys: ["A", "A"], counter)
    observable.addObserver(counter)

    observable.withKeyedObservers(key: "A") { (_, observer: Ping) in observer.ping("") }
    #expect(counter.count == 1)
    #expect(census(observable) == .init(observers: 1, keys: 1, subscriptions: 2))
  }

  @Test("removeKeyedObserver ends one key; the observer stays if it has other reasons", arguments: KeyedFamily.allCases)
  func removeKeyed(family: KeyedFamily) {
    let observable = family.make()
    let (both, keyedOnly) = (Counter(), Counter())
    observable.addObserver(both)
    observable.addKeyedObserver(keys: ["A", "B"], both)
    observable.addKeyedObserver(keys: ["A", "B"], keyedOnly)

    observable.removeKeyedObserver(key: "A", [both, keyedOnly])
    observable.withKeyedObservers(key: "A") { (_, observer: Ping) in observer.ping("") }
    #expect([both.count, keyedOnly.count] == [0, 0])
    #expect(census(observable) == .init(observers: 2, keys: 1, subscriptions: 4))

    // keyedOnly loses its last key, and with it its place among the plain observers.
    observable.removeKeyedObserver("B", keyedOnly)
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect([both.count, keyedOnly.count] == [1, 0])
    #expect(census(observable) == .init(observers: 1, keys: 1, subscriptions: 2))

    // Removing a stranger, or a key it does not have, does nothing.
    observable.removeKeyedObserver(key: "A", Counter())
    observable.removeKeyedObserver(keys: ["A", "Z"], both)
    #expect(census(observable) == .init(observers: 1, keys: 1, subscriptions: 2))
  }

  @Test("removeObserver ends the plain and every keyed subscription", arguments: KeyedFamily.allCases)
  func removeObserverEndsKeys(family: KeyedFamily) {
    let observable = family.make()
    let counter = Counter()
    observable.addKeyedObserver(keys: ["A", "B"], counter)
    observable.removeObserver(counter)

    observable.withKeyedObservers(keys: ["A", "B"]) { (_, observer: Ping) in observer.ping("") }
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(counter.count == 0)
    #expect(census(observable) == .init(observers: 0, keys: 0, subscriptions: 0))
  }

  @Test("Deallocated observers are pruned from every key, and empty keys dropped", arguments: KeyedFamily.allCases)
  func pruning(family: KeyedFamily) {
    let observable = family.make()
    let survivor = Counter()
    observable.addKeyedObserver(key: "A", survivor)
    do {
      let transient = Counter()
      observable.addKeyedObserver(keys: ["A", "B", "C"], transient)
    }
    #expect(census(observable) == .init(observers: 2, keys: 3, subscriptions: 6))

    // One keyed pass that meets the dead observer prunes it everywhere.
    var reached = 0
    observable.withKeyedObservers(key: "A") { (_, _: Ping) in reached += 1 }
    #expect(reached == 1)
    #expect(census(observable) == .init(observers: 1, keys: 1, subscriptions: 2))

    // A plain pass prunes keyed-only observers too.
    do {
      let transient = Counter()
      observable.addKeyedObserver(key: "D", transient)
    }
    observable.withObservers { (_: Ping) in }
    #expect(census(observable) == .init(observers: 1, keys: 1, subscriptions: 2))
  }

  @Test("Keyed subscriptions made or ended during a keyed pass", arguments: KeyedFamily.allCases)
  func changesDuringKeyedPass(family: KeyedFamily) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b, c, late) = (
      Recorder("a", log: log), Recorder("b", log: log), Recorder("c", log: log), Recorder("late", log: log)
    )
    observable.addKeyedObserver(key: "K", [a, b, c])
    a.onPing = { [unowned observable, unowned b, unowned late, unowned a] _ in
      observable.removeKeyedObserver(key: "K", b)
      observable.addKeyedObserver(key: "K", late)
      a.onPing = nil
    }

    observable.withKeyedObservers(key: "K") { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == ["K a", "K c"])
    observable.withKeyedObservers(key: "K") { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == ["K a", "K c", "K late"])
  }

  @Test("A nested keyed pass runs to completion inside the callback", arguments: KeyedFamily.allCases)
  func nestedKeyedPass(family: KeyedFamily) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b) = (Recorder("a", log: log), Recorder("b", log: log))
    observable.addKeyedObserver(keys: ["K", "L"], [a, b])
    a.onPing = { [unowned observable] key in
      guard key == "K" else { return }
      observable.withKeyedObservers(key: "L") { (key, observer: Ping) in observer.ping(key) }
      observable.withObservers { (observer: Ping) in observer.ping("") }
    }

    observable.withKeyedObservers(key: "K") { (key, observer: Ping) in observer.ping(key) }
    #expect(names(of: log) == ["K a", "L a", "L b", "a", "b", "K b"])
  }
}

/// How keys are typed.
@Suite("Keys")
struct KeyTests {
  final class IntKeyed: KeyedObservableClass<Int> {}
  final class MixedKeyed: KeyedObservableClass<AnyHashable> {}

  @Test("Typed keys: 1 as Int is its own key")
  func typedKeys() {
    let observable = IntKeyed()
    let counter = Counter()
    observable.addKeyedObserver(key: 1, counter)
    // observable.addKeyedObserver(key: 1.0, counter)
    //   error: cannot convert value of type 'Double' to expected argument type 'Int'
    // observable.withKeyedObservers(key: UInt8(1)) { … }
    //   error: cannot convert value of type 'UInt8' to expected argument type 'Int'
    observable.withKeyedObservers(key: 1) { (_, observer: Ping) in observer.ping("") }
    observable.withKeyedObservers(key: 2) { (_, observer: Ping) in observer.ping("") }
    #expect(counter.count == 1)
  }

  @Test("Mixed keys with AnyHashable compare as AnyHashable does")
  func mixedKeys() {
    let observable = MixedKeyed()
    let (number, text) = (Counter(), Counter())
    observable.addKeyedObserver(key: 1, number)
    observable.addKeyedObserver(key: "1", text)

    var reached: [String] = []
    observable.withKeyedObservers(key: 1.0) { (_, observer: Counter) in
      reached.append(observer === number ? "number" : "text")
    }
    observable.withKeyedObservers(key: "1") { (_, observer: Counter) in
      reached.append(observer === number ? "number" : "text")
    }
    // With AnyHashable, Double(1.0) and Int(1) are the same key; "1" is another.
    #expect(reached == ["number", "text"])

    // An array of keys is itself a valid AnyHashable key, so label the plural form.
    observable.addKeyedObserver(keys: [2, "two"], number)
    #expect(census(observable).keys == 4)

    // Removal compares keys the same way: 1.0 ends the subscription made for 1.
    observable.removeKeyedObserver(key: 1.0, number)
    #expect(census(observable).keys == 3)
    observable.withKeyedObservers(key: 1) { (_, _: Counter) in reached.append("removed") }
    #expect(reached == ["number", "text"])
  }
}
