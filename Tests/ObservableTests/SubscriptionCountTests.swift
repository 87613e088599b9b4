import Observable
import ObservableKit
import Testing

/// What one `addObserver` costs in the observer list (read with the list's package
/// counters): an unkeyed class holds a plain list, one subscription per observer.
@Suite("Subscriptions per addObserver")
struct SubscriptionCountTests {
  /// Entries written in every list of `observable`'s observer list.
  func storedEntries(_ observable: any Observable) -> Int {
    ((observable as! ObservableClass).observerList as! any StoredObserverCounts).storedEntryCount
  }

  @Test("An unkeyed class writes one subscription per addObserver", arguments: Family.base)
  func oneSubscriptionPerAdd(_ family: Family) {
    let observable = family.make()
    let observers = (0..<5).map { _ in Counter() }
    for observer in observers { observable.addObserver(observer) }
    #expect(storedEntries(observable) == 5)
    observable.addObserver(observers[0])  // again: changes nothing
    #expect(storedEntries(observable) == 5)
    observable.removeObserver(observers[1])
    #expect(storedEntries(observable) == 4)
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(observers.map(\.count) == [1, 0, 1, 1, 1], "one call each, in order, none for the removed")
    withExtendedLifetime(observers) {}
  }

  @Test("A keyed class writes the member and the keyless subscription, and one per key")
  func keyedSubscriptions() {
    let observable = KeyedFamily.plain.make()
    let observer = Counter()
    observable.addObserver(observer)
    #expect(storedEntries(observable) == 2, "the member and its keyless subscription")
    observable.addKeyedObserver(keys: ["A", "B"], observer)
    #expect(storedEntries(observable) == 4)
    withExtendedLifetime(observer) {}
  }
}
