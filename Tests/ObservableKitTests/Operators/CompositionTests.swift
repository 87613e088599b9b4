import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// The compositions of the confined family: scan, withLatestFrom, prepend, pairwise, and
/// merge and combineLatest over a collection.
@Suite("Compositions")
struct CompositionTests {
  @Test("Contract: scan folds each value into the result before it; each subscription starts from the initial result")
  func scanRunningTotal() {
    let event = ObservableEvent<Int>()
    let totals = ValueLog<Int>()
    let late = ValueLog<Int>()
    let running: ReadOnlyEvent<Int> = event.scan(0) { $0 + $1 }
    let token = running.observe(totals.handler)
    event.notifyObservers(1)
    event.notifyObservers(2)
    let lateToken = running.observe(late.handler)
    event.notifyObservers(3)
    #expect(totals.values == [1, 3, 6])
    #expect(late.values == [3], "a new subscription folds from the initial result")
    token.dispose()
    lateToken.dispose()
    #expect(!event.isObserved)

    let property = Property("a")
    let joined = ValueLog<String>()
    let propertyToken = property.scan("") { $0 + $1 }.observe(joined.handler)
    property.value = "b"
    #expect(joined.values == ["a", "ab"], "a property's replay is the first value folded in")
    propertyToken.dispose()
  }

  @Test("Contract: a scan handler that notifies its source hears that fold after its call returns")
  func scanReentrant() {
    let event = ObservableEvent<Int>()
    let totals = ValueLog<Int>()
    let token = event.scan(0) { $0 + $1 }.observe { total in
      totals.record(total)
      if total == 1 { event.notifyObservers(10) }
      totals.record(-total)
    }
    event.notifyObservers(1)
    #expect(totals.values == [1, -1, 11, -11])
    token.dispose()
  }

  @Test("Contract: scan folds each value exactly once when values arrive on several threads")
  func scanConcurrent() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let results = ValueLog<Int>()
    let token = event.scan(0) { $0 + $1 }.observe(results.handler)
    race(threads: 4) { _ in for _ in 0..<500 { event.notifyObservers(1) } }
    #expect(results.values.sorted() == Array(1...2_000))
    token.dispose()
  }

  @Test("Contract: withLatestFrom a property delivers every value with the property's current value")
  func withLatestFromProperty() {
    let tapped = ObservableEvent<Void>()
    let query = Property("")
    let submitted = ValueLog<String>()
    let combined = ValueLog<String>()
    let bag = DisposeBag()
    tapped.withLatestFrom(query).observe(submitted.handler).disposed(by: bag)
    tapped.map { 1 }.withLatestFrom(query) { "\($1)#\($0)" }.observe(combined.handler).disposed(by: bag)
    tapped.notifyObservers(())
    query.value = "swift"
    query.value = "swift 6"
    tapped.notifyObservers(())
    #expect(submitted.values == ["", "swift 6"])
    #expect(combined.values == ["#1", "swift 6#1"])
    #expect(!query.isObserved, "the property is read, not observed")
    bag.dispose()
    #expect(!tapped.isObserved)
  }

  @Test("Contract: withLatestFrom an event does not deliver values that come before the other event's first value")
  func withLatestFromEvent() {
    let tapped = ObservableEvent<Int>()
    let selection = ObservableEvent<String>()
    let heard = ValueLog<String>()
    let token = tapped.withLatestFrom(selection) { "\($1)\($0)" }.observe(heard.handler)
    tapped.notifyObservers(1)  // nothing to pair with: not delivered
    selection.notifyObservers("a")
    tapped.notifyObservers(2)
    selection.notifyObservers("b")
    selection.notifyObservers("c")
    tapped.notifyObservers(3)
    #expect(heard.values == ["a2", "c3"])
    let latest = ValueLog<String>()
    let latestToken = tapped.withLatestFrom(selection).observe(latest.handler)
    selection.notifyObservers("d")
    tapped.notifyObservers(4)
    #expect(latest.values == ["d"])
    token.dispose()
    latestToken.dispose()
    #expect(!tapped.isObserved && !selection.isObserved, "disposing ends both subscriptions")
  }

  @Test("Contract: prepend delivers its values inside observe, then the source's values; a property's replay comes after them")
  func prepend() {
    let event = ObservableEvent<Int>()
    let heard = ValueLog<Int>()
    let token = event.prepend(1, 2).observe(heard.handler)
    #expect(heard.values == [1, 2], "delivered before observe returns")
    event.notifyObservers(3)
    #expect(heard.values == [1, 2, 3])
    token.dispose()
    #expect(!event.isObserved)

    let property = Property(10)
    let fromProperty = ValueLog<Int>()
    let propertyToken = property.prepend([0]).observe(fromProperty.handler)
    property.value = 11
    #expect(fromProperty.values == [0, 10, 11])
    propertyToken.dispose()
  }

  @Test("Contract: a notification made while a prepended value is delivered is not heard by that subscription")
  func prependReentrant() {
    let event = ObservableEvent<Int>()
    let heard = ValueLog<Int>()
    let other = ValueLog<Int>()
    let otherToken = event.observe(other.handler)
    let token = event.prepend(0).observe { value in
      heard.record(value)
      if value == 0 { event.notifyObservers(1) }
    }
    event.notifyObservers(2)
    #expect(heard.values == [0, 2])
    #expect(other.values == [1, 2], "the notification itself reached the source's other observers")
    token.dispose()
    otherToken.dispose()
  }

  @Test("Contract: pairwise delivers (previous, current) from the second value; on a property, (old, new) for each set")
  func pairwise() {
    let event = ObservableEvent<Int>()
    let pairs = ValueLog<String>()
    let token = event.pairwise().observe { pairs.record("\($0)-\($1)") }
    for value in 1...4 { event.notifyObservers(value) }
    #expect(pairs.values == ["1-2", "2-3", "3-4"])
    token.dispose()

    let volume = Property(5)
    let changes = ValueLog<String>()
    let propertyToken = volume.pairwise().observe { changes.record("\($0)→\($1)") }
    volume.value = 7
    volume.value = 3
    #expect(changes.values == ["5→7", "7→3"])
    propertyToken.dispose()
  }

  @Test("Contract: pairwise and withLatestFrom handlers that notify their sources hear the result after the call returns")
  func pairwiseAndWithLatestFromReentrant() {
    let event = ObservableEvent<Int>()
    let calls = ValueLog<String>()
    let token = event.pairwise().observe { previous, current in
      calls.record("begin \(previous)-\(current)")
      if current == 2 { event.notifyObservers(3) }
      calls.record("end")
    }
    event.notifyObservers(1)
    event.notifyObservers(2)
    #expect(calls.values == ["begin 1-2", "end", "begin 2-3", "end"])
    token.dispose()

    let query = Property("a")
    let tapped = ObservableEvent<Int>()
    let read = ValueLog<String>()
    let readToken = tapped.withLatestFrom(query).observe { text in
      read.record(text)
      if text == "a" { query.value = "b"; tapped.notifyObservers(0) }
    }
    tapped.notifyObservers(0)
    #expect(read.values == ["a", "b"], "the queued notification reads the value set inside the call")
    readToken.dispose()
  }

  @Test("Contract: merge of a collection delivers every source's values; disposing ends every subscription")
  func mergeMany() {
    let sources = (0..<3).map { _ in ObservableEvent<Int>() }
    let heard = ValueLog<Int>()
    let token = sources.merge().observe(heard.handler)
    sources[2].notifyObservers(2)
    sources[0].notifyObservers(0)
    sources[1].notifyObservers(1)
    #expect(heard.values == [2, 0, 1])
    token.dispose()
    #expect(sources.allSatisfy { !$0.isObserved })

    let mixed = [sources[0].readOnly, Property(9).readOnly.changes, sources[1].map { $0 * 10 }].merge()
    let mixedToken = mixed.observe(heard.handler)
    sources[1].notifyObservers(5)
    #expect(heard.values == [2, 0, 1, 50])
    mixedToken.dispose()

    let none = [ObservableEvent<Int>]().merge()
    let noneToken = none.observe(heard.handler)
    #expect(heard.values == [2, 0, 1, 50])
    noneToken.dispose()
  }

  @Test("Contract: combineLatest of a collection replays the array of current values once, then a new array on every set")
  func combineLatestMany() {
    let flags = [Property(true), Property(false), Property(true)]
    let combined: ReadOnlyProperty<[Bool]> = flags.combineLatest()
    #expect(combined.value == [true, false, true])
    let heard = ValueLog<[Bool]>()
    let changes = ValueLog<[Bool]>()
    let token = combined.observe(heard.handler)
    let changesToken = combined.observeChanges(changes.handler)
    #expect(heard.values == [[true, false, true]], "one replay, not one per property")
    flags[1].value = true
    flags[0].value = false
    #expect(heard.values == [[true, false, true], [true, true, true], [false, true, true]])
    #expect(changes.values == [[true, true, true], [false, true, true]])
    let allOn = flags.combineLatest().map { $0.allSatisfy { $0 } }
    #expect(allOn.value == false)
    token.dispose()
    changesToken.dispose()
    #expect(flags.allSatisfy { !$0.isObserved })

    let empty = [Property<Int>]().combineLatest()
    let emptyHeard = ValueLog<[Int]>()
    let emptyToken = empty.observe(emptyHeard.handler)
    let emptyChanges = empty.observeChanges(emptyHeard.handler)
    #expect(empty.value == [])
    #expect(emptyHeard.values == [[]])
    emptyToken.dispose()
    emptyChanges.dispose()
  }

  @Test("Contract: a set made from inside a combineLatest-of-many handler is delivered after the call returns")
  func combineLatestManyReentrant() {
    let properties = [Property(0), Property(0)]
    let calls = ValueLog<String>()
    let token = properties.combineLatest().observe { values in
      calls.record("begin \(values)")
      if values == [1, 0] { properties[1].value = 2 }  // another property: handed off
      if values == [1, 2] { properties[0].value = 3 }  // the notifying property: queued
      calls.record("end \(values)")
    }
    properties[0].value = 1
    #expect(calls.values == [
      "begin [0, 0]", "end [0, 0]",
      "begin [1, 0]", "end [1, 0]",
      "begin [1, 2]", "end [1, 2]",
      "begin [3, 2]", "end [3, 2]",
    ])
    token.dispose()
  }

  @Test("Contract: a combineLatest-of-many handler never overlaps itself and ends on the final values")
  func combineLatestManyConcurrent() {
    nonisolated(unsafe) let properties = (0..<3).map { _ in Property(0) }
    let inside = Tally()
    let overlaps = Tally()
    let wentBack = Tally()
    let last = Guarded([0, 0, 0])
    let token = properties.combineLatest().observe { values in
      inside.increment()
      if inside.value > 1 { overlaps.increment() }
      if zip(values, last.value).contains(where: { $0 < $1 }) { wentBack.increment() }
      last.value = values
      inside.increment(by: -1)
    }
    race(threads: 3) { index in
      for round in 1...2_000 { properties[index].value = round }
    }
    #expect(overlaps.value == 0)
    #expect(wentBack.value == 0)
    #expect(last.value == [2_000, 2_000, 2_000])
    token.dispose()
  }

  @Test("Contract: composition chains release what they captured when the final subscription is disposed")
  func chainLifetime() {
    let tracker = LifetimeTracker()
    let event = ObservableEvent<Int>()
    let other = ObservableEvent<Int>()
    let property = Property(0)
    let tokens = Self.buildChains(event, other, property, tracker)
    event.notifyObservers(1)
    other.notifyObservers(2)
    #expect(tracker.liveCount == 4)
    tokens.forEach { $0.dispose() }
    #expect(tracker.liveCount == 0)
    #expect(!event.isObserved && !other.isObserved && !property.isObserved)
  }

  private static func buildChains(
    _ event: ObservableEvent<Int>,
    _ other: ObservableEvent<Int>,
    _ property: Property<Int>,
    _ tracker: LifetimeTracker
  ) -> [any Disposable] {
    let (a, b, c, d) = (tracker.make(), tracker.make(), tracker.make(), tracker.make())
    return [
      event.scan(0) { a.touch(); return $0 + $1 }.pairwise().observe { _ in },
      event.withLatestFrom(other) { b.touch(); return $0 + $1 }.prepend(0).observe { _ in },
      [event, other].merge().observe { _ in c.touch() },
      [property, property].combineLatest().map { d.touch(); return $0 }.observe { _ in },
    ]
  }
}
