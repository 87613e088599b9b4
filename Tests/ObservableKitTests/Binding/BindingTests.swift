import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Records what a property's handler hears, after the replay.
private func record<T>(_ property: Property<T>) -> (Guarded<[T]>, any Disposable) {
  let heard = Guarded<[T]>([])
  return (heard, property.observeChanges { v in heard.withLock { $0.append(v) } })
}

@Suite("Two-way bindings")
struct BindingTests {
  @Test("Start: b takes a's value (mapped)")
  func start() {
    let a = Property(1), b = Property(2)
    let (heardB, tokenB) = record(b)
    let disposable = a.bind(to: b)
    #expect(b.value == 1)
    #expect(a.value == 1)
    #expect(heardB.value == [1])
    let celsius = Property(20.0), fahrenheit = Property(0.0)
    celsius.bind(to: fahrenheit, map: { $0 * 9 / 5 + 32 }, reverse: { ($0 - 32) * 5 / 9 })
    #expect(fahrenheit.value == 68)
    fahrenheit.value = 212
    #expect(celsius.value == 100)
    disposable.dispose()
    tokenB.dispose()
  }

  @Test("A set on either side reaches the other exactly once, with no echo")
  func exactlyOnce() {
    let a = Property(0), b = Property(0)
    let disposable = a.bind(to: b)
    let (heardA, tokenA) = record(a), (heardB, tokenB) = record(b)
    a.value = 1
    b.value = 2
    a.value = 2
    #expect(heardA.value == [1, 2, 2])
    #expect(heardB.value == [1, 2, 2])
    disposable.dispose()
    tokenA.dispose(); tokenB.dispose()
  }

  @Test("A lossy map/reverse pair neither loops nor changes the side that was set")
  func lossy() {
    let a = Property(0.0), b = Property(0)
    let disposable = a.bind(to: b, map: { Int($0.rounded()) }, reverse: { Double($0) })
    let (heardA, tokenA) = record(a), (heardB, tokenB) = record(b)
    a.value = 1.4
    #expect(b.value == 1)
    #expect(a.value == 1.4)
    b.value = 3
    #expect(a.value == 3.0)
    #expect(heardA.value == [1.4, 3.0])
    #expect(heardB.value == [1, 3])
    disposable.dispose()
    tokenA.dispose(); tokenB.dispose()
  }

  @Test("A handler may set either side during the propagation: the last write wins, both end equal, nothing goes back in time")
  func handlerSetsDuringPropagation() {
    let a = Property(0), b = Property(0)
    let disposable = a.bind(to: b)
    // On b: hearing 1 sets a to 10; hearing 10 sets b to 11.
    let tokenB1 = b.observeChanges { v in if v == 1 { a.value = 10 } }
    let tokenB2 = b.observeChanges { v in if v == 10 { b.value = 11 } }
    let (heardA, tokenA) = record(a), (heardB, tokenB) = record(b)
    a.value = 1
    #expect(a.value == 11)
    #expect(b.value == 11)
    #expect(heardA.value.last == 11)
    #expect(heardB.value.last == 11)
    #expect(heardB.value.contains(11) && heardA.value.contains(10))
    for t in [disposable, tokenB1, tokenB2, tokenA, tokenB] { t.dispose() }
  }

  @Test("Binding a property to itself is a no-op")
  func selfBinding() {
    let a = Property(1)
    let (heard, token) = record(a)
    let disposable = a.bind(to: a)
    #expect(disposable.isDisposed)
    a.value = 2
    #expect(heard.value == [2])
    #expect(a.observerCount == 1)
    token.dispose()
  }

  @Test("Disposing ends the propagation both ways")
  func dispose() {
    let a = Property(0), b = Property(0)
    let disposable = a.bind(to: b)
    disposable.dispose()
    #expect(disposable.isDisposed)
    a.value = 1
    #expect(b.value == 0)
    b.value = 2
    #expect(a.value == 1)
    #expect(a.observerCount == 0 && b.observerCount == 0)
  }

  @Test("Each side is held weakly: the binding ends when either goes away")
  func weakSides() {
    let a = Property(0)
    weak var weakB: Property<Int>?
    var disposable: (any Disposable)?
    do {
      let b = Property(5)
      weakB = b
      disposable = a.bind(to: b)
    }
    #expect(weakB == nil)
    a.value = 3
    #expect(disposable!.isDisposed)
    #expect(a.observerCount == 0)
  }

  @Test("A read-only property is the source of a one-way bind(to:)")
  func oneWay() {
    let source = Property(1)
    let target = Property(0)
    let disposable = source.map { $0 * 2 }.bind(to: target)
    #expect(target.value == 2)
    source.value = 5
    #expect(target.value == 10)
    target.value = 7
    #expect(source.value == 5)
    disposable.dispose()
    source.value = 6
    #expect(target.value == 7)
    let shared = SharedProperty("x"), sharedTarget = SharedProperty("")
    let token = shared.readOnly.bind(to: sharedTarget)
    #expect(sharedTarget.value == "x")
    withWatchdog("a set on another thread") { shared.value = "y" }
    #expect(sharedTarget.value == "y")
    token.dispose()
  }

  @Test("Bound persisted properties: the store follows a set on either side")
  func boundPersisted() {
    let store = TestDefaults()
    let stored = Property(0, storage: .userDefaults("bound", in: store.defaults))
    let plain = Property(3)
    let disposable = plain.bind(to: stored)
    #expect(store.defaults.integer(forKey: "bound") == 3)
    stored.value = 4
    #expect(plain.value == 4)
    plain.value = 5
    #expect(store.defaults.integer(forKey: "bound") == 5)
    disposable.dispose()
  }

  @Test("SharedProperty: concurrent sets from several threads on both sides leave them equal, no duplicate per observer, no deadlock")
  func sharedConcurrent() {
    for _ in 0..<20 {
      let a = SharedProperty(0), b = SharedProperty(0)
      let disposable = a.bind(to: b)
      let logA = ValueLog<Int>(), logB = ValueLog<Int>()
      let tokens = [a.observeChangesNonisolated(logA.handler), b.observeChangesNonisolated(logB.handler)]
      race(threads: 4) { index in
        for i in 1...200 { (index % 2 == 0 ? a : b).value = index * 10_000 + i }
      }
      #expect(a.value == b.value)
      for log in [logA, logB] {
        let values = log.values
        // Each value is set once in the whole run, so a duplicate would be a second delivery.
        #expect(Set(values).count == values.count)
      }
      #expect(logA.values.last == a.value && logB.values.last == b.value)
      disposable.dispose()
      tokens.forEach { $0.dispose() }
    }
  }
}
