import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("flatMapLatest and take(until:)")
struct SwitchingTests {
  final class City {
    let name: String
    let price: Property<Double>
    init(_ name: String, _ price: Double) {
      self.name = name
      self.price = Property(price)
    }
  }

  @Test("Property.flatMapLatest: the current inner value at once, its sets, and a synchronous switch")
  func propertyFollowsInner() {
    let paris = City("Paris", 10), rome = City("Rome", 20)
    let selectedCity = Property(paris)
    let price: ReadOnlyProperty<Double> = selectedCity.flatMapLatest { $0.price }
    #expect(price.value == 10)
    var heard: [Double] = []
    let token = price.observe { heard.append($0) }
    paris.price.value = 11
    selectedCity.value = rome
    #expect(heard == [10, 11, 20], "the switch delivers the new inner's value before set returns")
    paris.price.value = 12
    #expect(heard == [10, 11, 20], "no value of a city that is no longer selected")
    #expect(paris.price.observerCount == 0, "the old inner is unsubscribed")
    rome.price.value = 21
    #expect(heard == [10, 11, 20, 21])
    #expect(price.value == 21)
    token.dispose()
    #expect(rome.price.observerCount == 0 && selectedCity.observerCount == 0, "disposing ends every subscription")
  }

  @Test("observeChanges on a flatMapLatest property: no replay, then inner sets and switches")
  func propertyChanges() {
    let paris = City("Paris", 10), rome = City("Rome", 20)
    let selectedCity = Property(paris)
    let price = selectedCity.flatMapLatest { $0.price }
    var heard: [Double] = []
    let token = price.observeChanges { heard.append($0) }
    #expect(heard.isEmpty)
    paris.price.value = 11
    selectedCity.value = rome
    #expect(heard == [11, 20])
    token.dispose()
  }

  @Test("the old inner is unsubscribed before the new inner is observed")
  func unsubscribesFirst() {
    let paris = City("Paris", 10), rome = City("Rome", 20)
    let selectedCity = Property(paris)
    var parisObservedDuringRomeReplay: Int?
    let token = selectedCity.flatMapLatest { city -> ReadOnlyProperty<Double> in
      if city === rome {
        return ReadOnlyProperty(
          value: { rome.price.value },
          observe: { handler in
            parisObservedDuringRomeReplay = paris.price.observerCount
            return rome.price.observe(handler)
          },
          observeChanges: { rome.price.observeChanges($0) }
        )
      }
      return city.price.readOnly
    }.observe { _ in }
    selectedCity.value = rome
    #expect(parisObservedDuringRomeReplay == 0)
    token.dispose()
  }

  @Test("a handler that switches the outer source hears the new inner after its call returns; calls never overlap")
  func reentrantSwitch() {
    let paris = City("Paris", 10), rome = City("Rome", 20)
    let selectedCity = Property(paris)
    var heard: [Double] = []
    var depth = 0
    var overlapped = false
    let token = selectedCity.flatMapLatest { $0.price }.observe { value in
      depth += 1
      defer { depth -= 1 }
      if depth > 1 { overlapped = true }
      heard.append(value)
      if value == 11 { selectedCity.value = rome }
    }
    paris.price.value = 11
    #expect(heard == [10, 11, 20])
    #expect(!overlapped)
    token.dispose()
  }

  @Test("event flatMapLatest: values of the current inner event only")
  func eventFollowsInner() {
    let a = ObservableEvent<Int>(), b = ObservableEvent<Int>()
    let select = ObservableEvent<Bool>()
    var heard: [Int] = []
    let token = select.flatMapLatest { $0 ? a : b }.observe { heard.append($0) }
    a.notifyObservers(1)
    select.notifyObservers(true)
    a.notifyObservers(2)
    select.notifyObservers(false)
    a.notifyObservers(3)
    b.notifyObservers(4)
    #expect(heard == [2, 4])
    #expect(a.observerCount == 0)
    token.dispose()
    #expect(b.observerCount == 0 && select.observerCount == 0)
  }

  @Test("shared families: flatMapLatest on SharedProperty and SharedEvent")
  func sharedFlatMapLatest() {
    let paris = SharedProperty(10.0), rome = SharedProperty(20.0)
    let selected = SharedProperty(0)
    let price: SharedReadOnlyProperty<Double> = selected.flatMapLatest { $0 == 0 ? paris : rome }
    let log = ValueLog<Double>()
    let token = price.observeNonisolated(log.handler)
    paris.value = 11
    selected.value = 1
    paris.value = 12
    rome.value = 21
    #expect(log.values == [10, 11, 20, 21])
    #expect(price.value == 21)
    #expect(paris.observerCount == 0)
    token.dispose()

    let a = SharedEvent<Int>(), b = SharedEvent<Int>()
    let select = SharedEvent<Bool>()
    let events = ValueLog<Int>()
    let eventToken = select.flatMapLatest { $0 ? a : b }.observeNonisolated(events.handler)
    select.notifyObservers(true)
    a.notifyObservers(1)
    select.notifyObservers(false)
    a.notifyObservers(2)
    b.notifyObservers(3)
    #expect(events.values == [1, 3])
    eventToken.dispose()
    #expect(select.observerCount == 0 && b.observerCount == 0)
  }

  @Test("take(until:): values until the other source's first value, then the chain is released")
  func takeUntil() {
    let tracker = LifetimeTracker()
    let ticks = ObservableEvent<Int>()
    let screenClosed = ObservableEvent<Void>()
    var heard: [Int] = []
    let tracked = tracker.make()
    let untilClosed = ticks.take(until: screenClosed)
    let token = untilClosed.observe { value in
      tracked.touch()
      heard.append(value)
    }
    _ = consume tracked
    ticks.notifyObservers(1)
    screenClosed.notifyObservers()
    ticks.notifyObservers(2)
    #expect(heard == [1])
    #expect(ticks.observerCount == 0 && screenClosed.observerCount == 0)
    #expect(token.isDisposed)
    #expect(tracker.liveCount == 0, "the handler and what it captured are released")
  }

  @Test("take(until:) a source that already ended it: nothing; a handler ending it is heard no more")
  func takeUntilEdges() {
    let ticks = ObservableEvent<Int>()
    let closed = Property(true)   // a property's replay is a value: it ends at once
    var heard: [Int] = []
    let token = ticks.take(until: closed).observe { heard.append($0) }
    ticks.notifyObservers(1)
    #expect(heard.isEmpty && ticks.observerCount == 0)
    #expect(token.isDisposed)

    let changes = ticks.take(until: closed.changes).observe { heard.append($0) }
    ticks.notifyObservers(2)
    closed.value = false
    ticks.notifyObservers(3)
    #expect(heard == [2])
    changes.dispose()
  }

  @Test("shared take(until:) from another thread")
  func sharedTakeUntil() {
    let ticks = SharedEvent<Int>()
    let stop = SharedEvent<Void>()
    let log = ValueLog<Int>()
    let token = ticks.take(until: stop).observeNonisolated(log.handler)
    ticks.notifyObservers(1)
    withWatchdog("stop from another thread") { stop.notifyObservers() }
    ticks.notifyObservers(2)
    #expect(log.values == [1])
    #expect(token.isDisposed && ticks.observerCount == 0 && stop.observerCount == 0)
  }
}
