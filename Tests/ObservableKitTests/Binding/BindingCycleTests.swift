import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Counts the sets of each property a test names, after the bindings are made.
private final class SetCounts: @unchecked Sendable {
  // `counts` is only touched under `lock`.
  private let lock = NSLock()
  private var counts: [String: Int] = [:]

  func record(_ name: String) {
    lock.lock()
    counts[name, default: 0] += 1
    lock.unlock()
  }

  /// The counts so far, then zero.
  func take() -> [String: Int] {
    lock.lock()
    defer { counts = [:]; lock.unlock() }
    return counts
  }
}

/// Runs `body` on another thread and returns what it returns, or nil (a recorded failure)
/// if it does not return within `timeout`: a binding that never returns fails the test
/// instead of hanging the run. Each test makes its properties inside `body`, so they stay in
/// that thread's domain.
private func bounded<R: Sendable>(
  _ what: String, timeout: TimeInterval = 10,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: @escaping @Sendable () -> R
) -> R? {
  let result = Guarded<R?>(nil)
  withWatchdog(what, timeout: timeout, sourceLocation: sourceLocation) {
    let value = body()
    result.value = value
  }
  return result.value
}

@Suite("Binding cycles", timeLimitWhereAvailable(minutes: 1))
struct BindingCycleTests {
  @Test("A ring of three two-way bindings: the closing bind returns, and an outside set reaches each property once")
  func twoWayRingOfThree() {
    let outcome = bounded("a ring of three two-way bindings") { () -> [[String: Int]] in
      let a = Property(1), b = Property(2), c = Property(3)
      let counts = SetCounts()
      let tokens = [
        a.observeChanges { _ in counts.record("a") },
        b.observeChanges { _ in counts.record("b") },
        c.observeChanges { _ in counts.record("c") },
        a.bind(to: b), b.bind(to: c),
      ]
      _ = counts.take()
      // The closing bind makes a take c's value; the ring carries it on once.
      let closing = c.bind(to: a)
      var start = counts.take()
      start["equal"] = a.value == 1 && b.value == 1 && c.value == 1 ? 1 : 0
      var seen = [start]
      for (property, value) in [(a, 10), (b, 20), (c, 30), (a, 40)] {
        property.value = value
        var step = counts.take()
        step["equal"] = a.value == value && b.value == value && c.value == value ? 1 : 0
        seen.append(step)
      }
      (tokens + [closing]).forEach { $0.dispose() }
      return seen
    }
    guard let outcome else { return }
    // The start: a takes c's value, and b takes it from a; c, the start's origin, is not set.
    #expect(outcome[0] == ["a": 1, "b": 1, "equal": 1])
    for step in outcome.dropFirst() {
      #expect(step == ["a": 1, "b": 1, "c": 1, "equal": 1])
    }
  }

  @Test("A ring of five two-way bindings, with identity and with inverse map/reverse pairs")
  func twoWayRingOfFive() {
    let outcome = bounded("a ring of five two-way bindings") { () -> ([[String: Int]], [String]) in
      let a = Property(0), b = Property(""), c = Property(0), d = Property(0.0), e = Property(0)
      let counts = SetCounts()
      var tokens = [
        a.observeChanges { _ in counts.record("a") }, b.observeChanges { _ in counts.record("b") },
        c.observeChanges { _ in counts.record("c") }, d.observeChanges { _ in counts.record("d") },
        e.observeChanges { _ in counts.record("e") },
      ]
      // a → "a" → 10·a → a (as a Double) → a: the ring's mappings compose to the identity.
      tokens += [
        a.bind(to: b, map: { String($0) }, reverse: { Int($0)! }),
        b.bind(to: c, map: { Int($0)! * 10 }, reverse: { String($0 / 10) }),
        c.bind(to: d, map: { Double($0) / 10 }, reverse: { Int(($0 * 10).rounded()) }),
        d.bind(to: e, map: { Int($0.rounded()) }, reverse: { Double($0) }),
        e.bind(to: a),
      ]
      _ = counts.take()
      var steps: [[String: Int]] = []
      var values: [String] = []
      for set in [{ a.value = 4 }, { b.value = "7" }, { c.value = 90 }, { d.value = 2 }, { e.value = 5 }] {
        set()
        steps.append(counts.take())
        values.append("\(a.value) \(b.value) \(c.value) \(d.value) \(e.value)")
      }
      // Identity all round.
      let f = Property(0), g = Property(0), h = Property(0), i = Property(0), j = Property(0)
      let ring = [f, g, h, i, j]
      for (index, property) in ring.enumerated() {
        let name = "fghij".map(String.init)[index]
        tokens.append(property.observeChanges { _ in counts.record(name) })
      }
      for index in ring.indices { tokens.append(ring[index].bind(to: ring[(index + 1) % ring.count])) }
      _ = counts.take()
      for (index, property) in ring.enumerated() {
        property.value = 100 + index
        steps.append(counts.take())
        values.append(ring.map { String($0.value) }.joined(separator: " "))
      }
      tokens.forEach { $0.dispose() }
      return (steps, values)
    }
    guard let (steps, values) = outcome else { return }
    for step in steps.prefix(5) { #expect(step == ["a": 1, "b": 1, "c": 1, "d": 1, "e": 1]) }
    #expect(values.prefix(5) == ["4 4 40 4.0 4", "7 7 70 7.0 7", "9 9 90 9.0 9", "2 2 20 2.0 2", "5 5 50 5.0 5"])
    for step in steps.dropFirst(5) { #expect(step == ["f": 1, "g": 1, "h": 1, "i": 1, "j": 1]) }
    #expect(values.dropFirst(5).map { Set($0.split(separator: " ")).count } == [1, 1, 1, 1, 1])
  }

  @Test("A ring of one-way binds (a → b → c → a): the third bind returns, and a set reaches each property once")
  func oneWayRing() {
    let outcome = bounded("a ring of one-way binds") { () -> [[String: Int]] in
      let a = Property(1), b = Property(2), c = Property(3)
      let counts = SetCounts()
      let tokens = [
        a.observeChanges { _ in counts.record("a") },
        b.observeChanges { _ in counts.record("b") },
        c.observeChanges { _ in counts.record("c") },
        a.readOnly.bind(to: b), b.readOnly.bind(to: c),
      ]
      _ = counts.take()
      let closing = c.readOnly.bind(to: a)
      var steps = [counts.take()]
      for (property, value) in [(a, 10), (b, 20), (c, 30)] {
        property.value = value
        var step = counts.take()
        step["equal"] = a.value == value && b.value == value && c.value == value ? 1 : 0
        steps.append(step)
      }
      // A mapped one-way ring, whose mappings compose to the identity.
      let x = Property(0), y = Property(0), z = Property(0)
      let more = [
        x.observeChanges { _ in counts.record("x") },
        y.observeChanges { _ in counts.record("y") },
        z.observeChanges { _ in counts.record("z") },
        x.map { $0 * 2 }.bind(to: y), y.map { $0 + 1 }.bind(to: z), z.map { ($0 - 1) / 2 }.bind(to: x),
      ]
      _ = counts.take()
      x.value = 5
      var step = counts.take()
      step["consistent"] = x.value == 5 && y.value == 10 && z.value == 11 ? 1 : 0
      steps.append(step)
      (tokens + more + [closing]).forEach { $0.dispose() }
      return steps
    }
    guard let outcome else { return }
    // The closing bind sets a to c's value, and b takes it; c, the origin, is not set again.
    #expect(outcome[0] == ["a": 1, "b": 1])
    for step in outcome.dropFirst().prefix(3) { #expect(step == ["a": 1, "b": 1, "c": 1, "equal": 1]) }
    #expect(outcome.last == ["x": 1, "y": 1, "z": 1, "consistent": 1])
  }

  @Test("Every pair of four properties bound two-way: a set reaches each property once")
  func twoWayCompleteGraph() {
    let outcome = bounded("four properties bound pairwise") { () -> [[String: Int]] in
      let ring = (0..<4).map { Property($0) }
      let names = ["a", "b", "c", "d"]
      let counts = SetCounts()
      var tokens: [any Disposable] = []
      for (index, property) in ring.enumerated() {
        tokens.append(property.observeChanges { [name = names[index]] _ in counts.record(name) })
      }
      for i in ring.indices { for j in ring.indices where i < j { tokens.append(ring[i].bind(to: ring[j])) } }
      _ = counts.take()
      var steps: [[String: Int]] = []
      for (index, property) in ring.enumerated() {
        property.value = 10 + index
        var step = counts.take()
        step["equal"] = ring.allSatisfy { $0.value == 10 + index } ? 1 : 0
        steps.append(step)
      }
      tokens.forEach { $0.dispose() }
      return steps
    }
    guard let outcome else { return }
    for step in outcome { #expect(step == ["a": 1, "b": 1, "c": 1, "d": 1, "equal": 1]) }
  }

  @Test("Two-way and one-way bindings in one ring: it ends equal; a set arriving by two paths may reach a property twice")
  func mixedRing() {
    let outcome = bounded("a ring of two-way and one-way bindings") { () -> [[String: Int]] in
      let a = Property(0), b = Property(0), c = Property(0)
      let counts = SetCounts()
      let tokens = [
        a.observeChanges { _ in counts.record("a") },
        b.observeChanges { _ in counts.record("b") },
        c.observeChanges { _ in counts.record("c") },
        a.bind(to: b), b.bind(to: c), c.readOnly.bind(to: a),
      ]
      _ = counts.take()
      var steps: [[String: Int]] = []
      for (property, value) in [(a, 1), (b, 2), (c, 3)] {
        property.value = value
        var step = counts.take()
        step["equal"] = a.value == value && b.value == value && c.value == value ? 1 : 0
        steps.append(step)
      }
      tokens.forEach { $0.dispose() }
      return steps
    }
    guard let outcome else { return }
    for step in outcome {
      #expect(step["equal"] == 1)
      #expect(step.filter { $0.key != "equal" }.values.allSatisfy { (1...2).contains($0) })
    }
  }

  @Test("A handler's set inside a ring is an outside set of its own: the ring ends equal on it")
  func handlerSetInsideRing() {
    let outcome = bounded("a clamping handler in a ring") { () -> [Int] in
      let a = Property(0), b = Property(0), c = Property(0)
      let tokens = [
        a.bind(to: b), b.bind(to: c), c.bind(to: a),
        b.observeChanges { if $0 > 10 { b.value = 10 } },
      ]
      a.value = 25
      let first = [a.value, b.value, c.value]
      c.value = 50
      tokens.forEach { $0.dispose() }
      return first + [a.value, b.value, c.value]
    }
    #expect(outcome == [10, 10, 10, 10, 10, 10])
  }

  @Test("a.readOnly.bind(to: a) and a.map { … }.bind(to: a) are no-ops, as a.bind(to: a) is")
  func readOnlySelfBinding() {
    let outcome = bounded("a read-only view bound into its own property") { () -> [String] in
      let a = Property(1)
      let heard = Guarded<[Int]>([])
      let token = a.observeChanges { v in heard.withLock { $0.append(v) } }
      let plain = a.readOnly.bind(to: a)
      let mapped = a.map { $0 + 1 }.bind(to: a)
      let twoWay = a.bind(to: a)
      var facts = [
        "disposed \(plain.isDisposed) \(mapped.isDisposed) \(twoWay.isDisposed)",
        "observers \(a.observerCount)",
        "value \(a.value) heard \(heard.value)",
      ]
      a.value = 2
      facts.append("value \(a.value) heard \(heard.value)")
      token.dispose()
      return facts
    }
    #expect(outcome == ["disposed true true true", "observers 1", "value 1 heard []", "value 2 heard [2]"])
  }

  @Test("SharedProperty: rings of two-way and one-way bindings, and a read-only self-bind")
  func sharedRings() {
    let outcome = bounded("shared rings") { () -> [String] in
      let a = SharedProperty(0), b = SharedProperty(0), c = SharedProperty(0)
      let counts = SetCounts()
      var tokens = [
        a.observeChangesNonisolated { _ in counts.record("a") },
        b.observeChangesNonisolated { _ in counts.record("b") },
        c.observeChangesNonisolated { _ in counts.record("c") },
        a.bind(to: b), b.bind(to: c), c.bind(to: a, map: { $0 }, reverse: { $0 }),
      ]
      _ = counts.take()
      var facts: [String] = []
      a.value = 1
      facts.append("\(counts.take().sorted { $0.key < $1.key }) \(a.value) \(b.value) \(c.value)")
      let x = SharedProperty(0), y = SharedProperty(0), z = SharedProperty(0)
      tokens += [
        x.observeChangesNonisolated { _ in counts.record("x") },
        y.observeChangesNonisolated { _ in counts.record("y") },
        z.observeChangesNonisolated { _ in counts.record("z") },
        x.readOnly.bind(to: y), y.readOnly.bind(to: z), z.readOnly.bind(to: x),
      ]
      _ = counts.take()
      y.value = 2
      facts.append("\(counts.take().sorted { $0.key < $1.key }) \(x.value) \(y.value) \(z.value)")
      let selfBound = x.readOnly.bind(to: x)
      facts.append("self-bind disposed \(selfBound.isDisposed)")
      tokens.forEach { $0.dispose() }
      return facts
    }
    #expect(
      outcome == [
        #"[(key: "a", value: 1), (key: "b", value: 1), (key: "c", value: 1)] 1 1 1"#,
        #"[(key: "x", value: 1), (key: "y", value: 1), (key: "z", value: 1)] 2 2 2"#,
        "self-bind disposed true",
      ])
  }

  @Test("SharedProperty: a ring set from several threads at once ends, equal")
  func sharedRingConcurrent() {
    for _ in 0..<20 {
      let a = SharedProperty(0), b = SharedProperty(0), c = SharedProperty(0)
      let tokens = [a.bind(to: b), b.bind(to: c), c.bind(to: a)]
      let ring = [a, b, c]
      race(threads: 3, timeout: 20) { index in
        for i in 1...200 { ring[index].value = index * 10_000 + i }
      }
      #expect(a.value == b.value && b.value == c.value)
      tokens.forEach { $0.dispose() }
    }
  }
}
