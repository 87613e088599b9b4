import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Operators")
struct OperatorTests {
  @Test("map, filter and compactMap transform and select event values")
  func mapFilterCompactMap() {
    let event = ObservableEvent<Int>()
    let mapped = ValueLog<String>()
    let filtered = ValueLog<Int>()
    let compacted = ValueLog<Int>()
    let bag = DisposeBag()
    event.map { "#\($0)" }.observe(mapped.handler).disposed(by: bag)
    event.filter { $0.isMultiple(of: 2) }.observe(filtered.handler).disposed(by: bag)
    event.map { String($0) }.compactMap { Int($0 + "0") }.observe(compacted.handler).disposed(by: bag)
    for value in 1...4 { event.notifyObservers(value) }
    #expect(mapped.values == ["#1", "#2", "#3", "#4"])
    #expect(filtered.values == [2, 4])
    #expect(compacted.values == [10, 20, 30, 40])
  }

  @Test("removeDuplicates skips repeats, with == or a predicate")
  func removeDuplicates() {
    let event = ObservableEvent<Int>()
    let equal = ValueLog<Int>()
    let sameParity = ValueLog<Int>()
    let bag = DisposeBag()
    event.removeDuplicates().observe(equal.handler).disposed(by: bag)
    event.removeDuplicates { $0 % 2 == $1 % 2 }.observe(sameParity.handler).disposed(by: bag)
    for value in [1, 1, 2, 2, 4, 3, 3, 1] { event.notifyObservers(value) }
    #expect(equal.values == [1, 2, 4, 3, 1])
    #expect(sameParity.values == [1, 2, 3])
  }

  /// Migrating from Combine: the comparison is with the last value delivered, where Combine's
  /// is with the last value received; they differ for a comparison that is not transitive.
  @Test("removeDuplicates(by:) compares with the last value delivered, on both families")
  func removeDuplicatesComparesWithTheLastDelivered() {
    let near: @Sendable (Int, Int) -> Bool = { abs($0 - $1) < 2 }
    let event = ObservableEvent<Int>()
    let shared = SharedEvent<Int>()
    let confinedLog = ValueLog<Int>()
    let sharedLog = ValueLog<Int>()
    let bag = DisposeBag()
    event.removeDuplicates(by: near).observe(confinedLog.handler).disposed(by: bag)
    shared.removeDuplicates(by: near).observeNonisolated(sharedLog.handler).disposed(by: bag)
    for value in [0, 1, 2, 3] {
      event.notifyObservers(value)
      shared.notifyObservers(value)
    }
    #expect(confinedLog.values == [0, 2])
    #expect(sharedLog.values == [0, 2])
  }

  @Test("skip and take count per subscription; take ends the upstream subscription")
  func skipAndTake() {
    let event = ObservableEvent<Int>()
    let skipped = ValueLog<Int>()
    let taken = ValueLog<Int>()
    let skipToken = event.skip(2).observe(skipped.handler)
    let takeToken = event.take(2).observe(taken.handler)
    for value in 1...5 { event.notifyObservers(value) }
    #expect(skipped.values == [3, 4, 5])
    #expect(taken.values == [1, 2])
    #expect(event.observerCount == 1, "take(2) ended its upstream subscription")
    #expect(takeToken.isDisposed)
    skipToken.dispose()
    #expect(event.take(0).observe { _ in }.isDisposed)
  }

  @Test("Contract: once ends its subscription before calling the handler")
  func onceConsumesFirst() {
    let event = ObservableEvent<Int>()
    let heard = ValueLog<Int>()
    let token = event.once().observe { value in
      heard.record(value)
      event.notifyObservers(value + 1)  // queued; the once handler must not hear it
    }
    event.notifyObservers(1)
    event.notifyObservers(5)
    #expect(heard.values == [1])
    #expect(token.isDisposed)
    #expect(!event.isObserved)
  }

  @Test("take(1) on a property delivers the replay and ends during observe")
  func takeOnPropertyReplay() {
    let property = Property(7)
    let heard = ValueLog<Int>()
    let token = property.take(1).observe(heard.handler)
    property.value = 8
    #expect(heard.values == [7])
    #expect(token.isDisposed)
    #expect(!property.isObserved)
  }

  @Test("merge delivers the values of every source; disposing ends all upstream subscriptions")
  func merge() {
    let first = ObservableEvent<Int>()
    let second = ObservableEvent<Int>()
    let heard = ValueLog<Int>()
    let token = first.merge(with: second).observe(heard.handler)
    first.notifyObservers(1)
    second.notifyObservers(2)
    first.notifyObservers(3)
    #expect(heard.values == [1, 2, 3])
    token.dispose()
    #expect(!first.isObserved && !second.isObserved)
  }

  @Test("A property derived by map has a current value and replays it")
  func propertyMap() {
    let celsius = Property(20.0)
    let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
    #expect(fahrenheit.value == 68)
    let heard = ValueLog<Double>()
    let token = fahrenheit.observe(heard.handler)
    celsius.value = 100
    #expect(heard.values == [68, 212])
    #expect(fahrenheit.value == 212)
    token.dispose()
  }

  @Test("removeDuplicates on a property replays, then skips equal values")
  func propertyRemoveDuplicates() {
    let property = Property("a")
    let heard = ValueLog<String>()
    let changes = ValueLog<String>()
    let bag = DisposeBag()
    property.removeDuplicates().observe(heard.handler).disposed(by: bag)
    property.removeDuplicates().observeChanges(changes.handler).disposed(by: bag)
    for value in ["a", "b", "b", "a"] { property.value = value }
    #expect(heard.values == ["a", "b", "a"])
    #expect(changes.values == ["b", "a"])
  }

  @Test("combineLatest pairs the current values and updates on either side")
  func combineLatest() {
    let name = Property("Ada")
    let score = Property(1)
    let pair = name.combineLatest(score)
    #expect(pair.value == ("Ada", 1))
    let heard = ValueLog<String>()
    let changes = ValueLog<String>()
    let token = pair.observe { heard.record("\($0) \($1)") }
    let changesToken = pair.observeChanges { changes.record("\($0) \($1)") }
    score.value = 2
    name.value = "Grace"
    #expect(heard.values == ["Ada 1", "Ada 2", "Grace 2"])
    #expect(changes.values == ["Ada 2", "Grace 2"])
    token.dispose()
    changesToken.dispose()
    #expect(!name.isObserved && !score.isObserved)

    let triple = name.combineLatest(score, Property(true))
    #expect(triple.value == ("Grace", 2, true))
  }

  @Test("Contract: chains create no retain cycles; disposing the final subscription releases the chain")
  func chainLifetime() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    let property = Property(0)
    let tokens: [any Disposable] = Self.buildChains(on: event, property, tracking: tracker)
    #expect(tracker.liveCount == 3)
    #expect(event.observerCount == 1)
    #expect(property.observerCount == 3, "map, and combineLatest of the property with itself")
    tokens.forEach { $0.dispose() }
    #expect(tracker.liveCount == 0)
    #expect(!event.isObserved && !property.isObserved)
  }

  private static func buildChains(
    on event: ObservableEvent<Int>,
    _ property: Property<Int>,
    tracking tracker: LifetimeTracker
  ) -> [any Disposable] {
    let a = tracker.make()
    let b = tracker.make()
    let c = tracker.make()
    return [
      event.map { a.touch(); return $0 }.filter { _ in true }.removeDuplicates().skip(1).observe { _ in },
      property.map { b.touch(); return $0 + 1 }.removeDuplicates().observe { _ in },
      property.combineLatest(property.map { $0 }).observe { _ in c.touch() },
    ]
  }

  @Test("a read-only view observes and reads the source but cannot set it")
  func readOnlyViews() {
    let property = Property(1)
    let view = property.readOnly
    let heard = ValueLog<Int>()
    let token = view.observe(heard.handler)
    property.value = 2
    #expect(view.value == 2)
    #expect(heard.values == [1, 2])
    token.dispose()

    let event = ObservableEvent<Int>()
    let events = event.readOnly
    let eventToken = events.observe(heard.handler)
    event.notifyObservers(3)
    #expect(heard.values == [1, 2, 3])
    eventToken.dispose()
  }
}
