import TestSupport
import Testing

@testable import ObservableKit

/// The storage finds a subscription by id with an interpolation search; these pin that it
/// answers exactly what a linear scan answers, on even and on badly uneven ids.
@Suite("Storage search")
struct StorageSearchTests {
  /// The answer of a plain scan: the first index whose id is not less than `id`.
  func scan(_ ids: [UInt64], _ id: UInt64) -> Int {
    ids.firstIndex { $0 >= id } ?? ids.count
  }

  func checkEveryProbe(_ ids: [UInt64], sourceLocation: SourceLocation = #_sourceLocation) {
    var probes = Set(ids)
    for id in ids { probes.formUnion([id &- 1, id &+ 1]) }
    probes.formUnion([0, 1, UInt64.max])
    for probe in probes {
      let found = ids.lowerBound(of: probe) { $0 }
      if found != scan(ids, probe) {
        Issue.record("lowerBound(\(probe)) = \(found), a scan says \(scan(ids, probe)), ids \(ids.prefix(20))…", sourceLocation: sourceLocation)
        return
      }
    }
  }

  @Test("Even ids, as subscription hands them out, with random removals")
  func evenIds() {
    var generator = SeededRandom(seed: 7)
    checkEveryProbe([])
    checkEveryProbe([5])
    checkEveryProbe(Array(1...1_000))
    for keep in [0.9, 0.5, 0.1] {
      checkEveryProbe((1...5_000).filter { _ in Double(generator.next() % 1_000) / 1_000 < keep })
    }
  }

  @Test("Uneven ids: clusters, gaps and ids near the top of the range")
  func unevenIds() {
    checkEveryProbe(Array(1...100) + [1_000_000])
    checkEveryProbe([1] + Array(900_000...900_100))
    checkEveryProbe((0..<64).map { UInt64(1) << $0 })
    checkEveryProbe([0, 1, UInt64.max - 1, UInt64.max])
    checkEveryProbe(Array(UInt64.max - 200...UInt64.max))
  }
}
