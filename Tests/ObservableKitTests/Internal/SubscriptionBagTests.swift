import TestSupport
import Testing

@testable import ObservableKit

/// The subscription bag that events, properties and the weak observer lists share: random
/// appends and removals against a plain model of it.
@Suite("Subscription bag")
struct SubscriptionBagTests {
  struct Entry<Payload>: BagEntry {
    let id: UInt64
    var payload: Payload?

    init(id: UInt64, payload: Payload) {
      self.id = id
      self.payload = payload
    }
  }

  @Test("Random appends and removals: the bag answers as a plain list of live ids would, in order")
  func matchesModel() {
    var generator = SeededRandom(seed: 22)
    var bag = SubscriptionBag<Entry<Int>>()
    var live: [UInt64] = []
    var ended: Set<UInt64> = []
    var nextID: UInt64 = 1
    var compactions = 0
    for _ in 0..<5_000 {
      if live.isEmpty || generator.next() % 5 < 2 {
        // Ids skip ahead now and then, as a weak table's lists share one counter.
        nextID += generator.next() % 4 == 0 ? 1 + generator.next() % 50 : 1
        bag.append(Int(nextID), id: nextID)
        live.append(nextID)
      } else {
        let id = live.remove(at: Int(generator.next() % UInt64(live.count)))
        let before = bag.entries.count
        #expect(bag.remove(id) == Int(id))
        if bag.entries.count < before { compactions += 1 }
        ended.insert(id)
        #expect(bag.remove(id) == nil, "a second removal finds nothing")
      }
      #expect(bag.liveCount == live.count)
    }
    #expect(bag.entries.compactMap(\.payload).map(UInt64.init) == live, "live payloads in subscription order")
    #expect(bag.entries.map(\.id) == bag.entries.map(\.id).sorted())
    #expect(live.allSatisfy { bag.payload(of: $0) == Int($0) })
    #expect(ended.allSatisfy { bag.payload(of: $0) == nil })
    #expect(compactions > 0)
    #expect(bag.entries.count <= 2 * max(live.count, 8), "tombstones never outnumber the live entries for long")
  }

  @Test("Compaction waits for 8 tombstones that are at least half of the entries")
  func compactionThreshold() {
    var bag = SubscriptionBag<Entry<String>>()
    for id in 1...20 as ClosedRange<UInt64> { bag.append("\(id)", id: id) }
    for id in 1...9 as ClosedRange<UInt64> { _ = bag.remove(id) }
    #expect(bag.entries.count == 20, "9 tombstones of 20: kept")
    _ = bag.remove(10)
    #expect(bag.entries.count == 10, "10 of 20: compacted")
    #expect(bag.entries.map(\.id) == Array(11...20))
    let removed = bag.removeAll()
    #expect(removed.count == 10 && bag.liveCount == 0 && bag.entries.isEmpty)
  }
}
