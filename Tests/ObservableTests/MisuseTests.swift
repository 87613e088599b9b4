import Observable
import Testing
import TestSupport

/// The rows of the misuse table that no other test of this module pins.
@Suite("Misuse: compatibility classes")
struct CompatMisuseTests {
  @Test("Misuse: a pass for a key nobody observes calls nothing and creates no key")
  func unknownKey() {
    let observable = KeyedObservableClass<String>()
    let observer = Counter()
    observable.addKeyedObserver(key: "known", observer)
    var calls = 0
    observable.withKeyedObservers(key: "unknown") { (_, _: Ping) in calls += 1 }
    observable.withKeyedObservers(keys: ["unknown", "other"]) { (_, _: Ping) in calls += 1 }
    #expect(calls == 0)
    #expect(census(observable).keys == 1, "asking for a key must not create it")
  }

  @Test("Misuse: removing a keyed observer for a key it never had does nothing")
  func removeUnknownKey() {
    let observable = KeyedObservableClass<String>()
    let observer = Counter()
    observable.addKeyedObserver(key: "a", observer)
    observable.removeKeyedObserver(key: "b", observer)
    observable.removeKeyedObserver(key: "a", Counter())
    observable.withKeyedObservers(key: "a") { (_, observer: Ping) in observer.ping("") }
    #expect(observer.count == 1)
    #expect(census(observable) == .init(observers: 1, keys: 1, subscriptions: 2))
  }
}
