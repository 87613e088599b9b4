import ObservableKit
import Testing
import TestSupport

/// Cycles of bindings as Swift 6 code writes them: a main-actor model's properties bound in
/// a ring, and shared properties bound in a ring and set from tasks. The suite's time limit
/// is the watchdog: a propagation that never ends fails it.
@Suite("Binding cycles, Swift 6 mode", timeLimitWhereAvailable(minutes: 1))
struct BindingCycleIsolationTests {
  @MainActor final class Form {
    let first = Property("")
    let second = Property("")
    let third = Property("")
    var bindings: [any Disposable] = []
    var sets = 0

    init() {
      bindings = [
        first.bind(to: second), second.bind(to: third), third.bind(to: first),
        first.readOnly.bind(to: first),
      ]
      for property in [first, second, third] {
        bindings.append(property.observeChanges { [unowned self] _ in sets += 1 })
      }
    }
  }

  @Test("A main-actor model's ring of bindings: a set reaches each property once, and a read-only self-bind is a no-op")
  @MainActor func mainActorRing() {
    let form = Form()
    #expect(form.bindings[3].isDisposed)
    form.second.value = "x"
    #expect(form.sets == 3)
    #expect([form.first.value, form.second.value, form.third.value] == ["x", "x", "x"])
    form.bindings.forEach { $0.dispose() }
  }

  @Test("Shared properties in a ring, set from concurrent tasks: every set returns, and the ring ends equal")
  func sharedRingFromTasks() async {
    let a = SharedProperty(0), b = SharedProperty(0), c = SharedProperty(0)
    let tokens = [a.bind(to: b), b.bind(to: c), c.readOnly.bind(to: a), a.readOnly.bind(to: a)]
    #expect(tokens[3].isDisposed)
    await withTaskGroup(of: Void.self) { group in
      for (index, property) in [a, b, c].enumerated() {
        group.addTask {
          for i in 1...100 { property.value = index * 1_000 + i }
        }
      }
    }
    #expect(a.value == b.value && b.value == c.value)
    tokens.forEach { $0.dispose() }
  }
}
