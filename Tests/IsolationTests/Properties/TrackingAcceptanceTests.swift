import Dispatch
import ObservableKit
import Testing
import TestSupport

#if canImport(Observation)
import Observation
#endif

// Acceptance checks, written as users write code: ReadOnlyProperty(tracking:)
// over an @Observable model.

#if canImport(Observation)
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor @Observable private final class Person {
  var first = "Ada"
  var last = "Lovelace"
}

@Suite("QA acceptance: ReadOnlyProperty(tracking:)")
@MainActor
struct QATrackingAcceptanceTests {
  /// Waits for the next value a handler hears.
  final class Heard<Value> {
    var values: [Value] = []
    var waiter: (Int, CheckedContinuation<Void, Never>)?
    func add(_ value: Value) {
      values.append(value)
      if let (n, c) = waiter, values.count >= n { waiter = nil; c.resume() }
    }
    func wait(for n: Int) async {
      if values.count >= n { return }
      await withCheckedContinuation { waiter = (n, $0) }
    }
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test func currentValueAtOnceThenRecomputesAfterChanges() async {
    let model = Person()
    let fullName = ReadOnlyProperty(tracking: { model.first + " " + model.last })
    #expect(fullName.value == "Ada Lovelace")
    let heard = Heard<String>()
    let token = fullName.observe { heard.add($0) }
    #expect(heard.values == ["Ada Lovelace"])
    model.first = "Grace"
    model.last = "Hopper"
    await heard.wait(for: 2)
    #expect(heard.values.last == "Grace Hopper")
    #expect(!heard.values.contains("Grace Lovelace") || heard.values.last == "Grace Hopper")
    model.first = "Alan"
    await heard.wait(for: heard.values.count + 1)
    #expect(heard.values.last == "Alan Hopper")
    token.dispose()
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test func operatorsOwnersAndValuesWork() async {
    final class Label { var text = "" }
    let model = Person()
    let fullName = ReadOnlyProperty(tracking: { model.first + " " + model.last })
    let label = Label()
    let lengths = Heard<Int>()
    let bag = DisposeBag()
    fullName.map(\.count).removeDuplicates().observe { lengths.add($0) }.disposed(by: bag)
    fullName.observe(with: label) { label, name in label.text = name }.disposed(by: bag)
    #expect(label.text == "Ada Lovelace")
    #expect(lengths.values == [12])
    model.first = "Ed"
    await lengths.wait(for: 2)
    #expect(lengths.values == [12, 11])
    #expect(label.text == "Ed Lovelace")
    for await name in fullName.values {
      #expect(name == "Ed Lovelace")
      break
    }
    bag.dispose()
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test func disposingTheLastObserverStopsTracking() async {
    let model = Person()
    let reads = Guarded(0)
    let fullName = ReadOnlyProperty(tracking: {
      reads.withLock { $0 += 1 }
      return model.first + " " + model.last
    })
    let heard = Heard<String>()
    let token = fullName.observe { heard.add($0) }
    model.first = "B"
    await heard.wait(for: 2)
    token.dispose()
    let before = reads.value
    model.first = "C"
    model.last = "D"
    await drainMain()
    #expect(reads.value == before, "a recompute ran after the last observer was disposed")
    #expect(heard.values == ["Ada Lovelace", "B Lovelace"])
  }

  private func drainMain() async {
    for _ in 0..<3 {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { done.resume() }
      }
    }
  }
}
#endif
