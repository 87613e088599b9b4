import Foundation
import Testing
import TestSupport

@testable import ObservableKit

// A model-based walk of two-way bindings: two confined properties bound through an exact
// mapping (×2 and ÷2), random sets on either side, sets made by handlers during a
// propagation, and disposal and rebinding. The model says what each side holds and what each
// observer hears; checked after every step.
//
// Replay a failure with OBSERVABLEKIT_MODEL_SEED=<seed> swift test --filter ModelBasedBinding
@Suite("Model-based: bindings")
struct ModelBasedBindingTests {
  @Test("Random walk")
  func randomWalk() {
    let seed = ProcessInfo.processInfo.environment["OBSERVABLEKIT_MODEL_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    var random = SeededRandom(seed: seed)
    let a = Property(0), b = Property(0)
    var heardA: [Int] = [], heardB: [Int] = []
    var expectedA: [Int] = [], expectedB: [Int] = []
    // A handler on b that, on hearing `trigger`, sets a to `reaction`.
    var trigger: Int?
    var reaction = 0
    let tokens = [
      a.observeChanges { heardA.append($0) },
      b.observeChanges { heardB.append($0) },
      b.observeChanges { value in
        if value == trigger { trigger = nil; a.value = reaction }
      },
    ]
    var binding: (any Disposable)? = a.bind(to: b, map: { $0 * 2 }, reverse: { $0 / 2 })
    expectedB.append(0)  // the start: b takes a's value, mapped
    for step in 0..<2_000 {
      let bound = binding != nil
      switch random.next() % 6 {
      case 0, 1:
        let x = Int(random.next() % 1000)
        a.value = x
        expectedA.append(x)
        if bound { expectedB.append(x * 2) }
      case 2, 3:
        let y = Int(random.next() % 1000) * 2
        b.value = y
        expectedB.append(y)
        if bound { expectedA.append(y / 2) }
      case 4:
        // A set of a from b's handler, during the propagation of a set of a.
        let x = Int(random.next() % 1000)
        reaction = Int(random.next() % 1000) + 1000
        trigger = x * 2
        a.value = x
        expectedA.append(x)
        if bound {
          expectedB.append(x * 2)
          expectedA.append(reaction)
          expectedB.append(reaction * 2)
        }
        trigger = nil
      default:
        if let current = binding {
          current.dispose()
          binding = nil
        } else {
          binding = a.bind(to: b, map: { $0 * 2 }, reverse: { $0 / 2 })
          expectedB.append(a.value * 2)
        }
      }
      #expect(heardA == expectedA, "seed \(seed), step \(step): a heard \(heardA.suffix(4)), expected \(expectedA.suffix(4))")
      #expect(heardB == expectedB, "seed \(seed), step \(step): b heard \(heardB.suffix(4)), expected \(expectedB.suffix(4))")
      if binding != nil { #expect(a.value * 2 == b.value, "seed \(seed), step \(step): sides differ") }
      if heardA != expectedA || heardB != expectedB { break }
    }
    binding?.dispose()
    tokens.forEach { $0.dispose() }
  }
}
