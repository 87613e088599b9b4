/// One entry of a ``SubscriptionBag``: a subscription's id, which is its place in the order,
/// and its payload, nil once the subscription ended (a tombstone until the next compaction).
///
/// Each engine declares its own entry type (`ObserverEntry`, `WeakSubscription`), so that
/// its array's elements have a layout the compiler knows. A generic `Subscription<Payload>`
/// holding `Payload?` was measured: releasing or compacting its array went through value
/// witnesses that ask the payload's metadata for the `nil` case, on every churn (S3a churn
/// in count-instructions.sh shows the difference).
@usableFromInline
package protocol BagEntry {
  associatedtype Payload
  init(id: UInt64, payload: Payload)
  var id: UInt64 { get }
  var payload: Payload? { get set }
}

/// The ordered subscription bag of both engines: `ObserverStorage` keeps a handler per
/// subscription in one, a weak observer list a weak reference per observer (one bag per
/// list). It holds the order, the id search, the tombstones and their compaction; its owner
/// holds the lock, hands out the ids and runs passes over it (`ObserverListLock+Pass.swift`).
///
/// Invariants (the owner's lock guards the bag):
/// - Entries are sorted by id. The owner hands out ids in increasing order from one counter
///   that outlives the bag (a weak table shares one counter between its lists, so a list
///   emptied and made again never reuses an id that a pass in progress would take for one
///   made before it began).
/// - Removal is an id search and leaves a tombstone; tombstones are dropped once they are at
///   least 8 and half the entries, so removal is O(1) amortized.
/// - A pass holds the entries buffer, shared: a change made meanwhile copies it first, so a
///   pass never sees the buffer change under it.
///
/// A closure payload is wrapped in a struct (see `ObserverHandler`) so that it keeps the
/// abstraction it was made with: a bare closure type as `Payload`, read through the entry's
/// protocol, would be converted, and every add and call would go through a reabstraction
/// thunk, which allocates.
@usableFromInline
package struct SubscriptionBag<Entry: BagEntry> {
  /// Live entries and tombstones, in subscription order. A pass takes this buffer by reference.
  @usableFromInline package private(set) var entries: ContiguousArray<Entry> = []
  @usableFromInline private(set) var tombstones = 0

  @inlinable
  package init() {}

  /// The number of live subscriptions.
  @inlinable package var liveCount: Int { entries.count - tombstones }

  /// Appends a subscription; `id` must exceed every id in the bag.
  @inlinable
  package mutating func append(_ payload: consuming Entry.Payload, id: UInt64) {
    assert(entries.last.map { $0.id < id } ?? true, "subscription ids must ascend")
    entries.append(Entry(id: id, payload: payload))
  }

  /// Adds a payload for subscription `id`, which may be older than others in the bag, at its
  /// place in the order: O(n), for a link made after its subscription (a main-actor
  /// subscription's mailbox, made when its first value must wait).
  @inlinable
  package mutating func insert(_ payload: consuming Entry.Payload, id: UInt64) {
    let index = entries.lowerBound(of: id) { $0.id }
    assert(index == entries.count || entries[index].id != id, "one payload per subscription")
    entries.insert(Entry(id: id, payload: payload), at: index)
  }

  /// The index of subscription `id`, live or a tombstone; nil if it was compacted away or
  /// never was.
  @inlinable
  package func index(of id: UInt64) -> Int? {
    let index = entries.lowerBound(of: id) { $0.id }
    return index < entries.count && entries[index].id == id ? index : nil
  }

  /// The payload of subscription `id`, nil once it ended.
  @inlinable
  package func payload(of id: UInt64) -> Entry.Payload? {
    index(of: id).flatMap { entries[$0].payload }
  }

  /// Ends subscription `id` and returns its payload, which the caller releases after the
  /// lock; nil if it had ended. Leaves a tombstone, and compacts once they are half.
  @inlinable
  package mutating func remove(_ id: UInt64) -> Entry.Payload? {
    guard let index = index(of: id), let payload = entries[index].payload else { return nil }
    entries[index].payload = nil
    tombstones += 1
    // Tombstones hold no payload, so compacting releases nothing but buffer memory.
    if tombstones >= 8, tombstones * 2 >= entries.count {
      entries.removeAll { $0.payload == nil }
      tombstones = 0
    }
    return payload
  }

  /// Replaces the payload of the live subscription `id`; returns false if it had ended.
  @inlinable
  package mutating func replace(_ id: UInt64, with payload: consuming Entry.Payload) -> Bool {
    guard let index = index(of: id), entries[index].payload != nil else { return false }
    entries[index].payload = payload
    return true
  }

  /// Ends every subscription; returns the entries, for the caller to release after the lock.
  @inlinable
  package mutating func removeAll() -> ContiguousArray<Entry> {
    // Swapped out, not copied: a copy retains the buffer once more (measured in the
    // thresholds' S3s, where a source's release runs this unspecialized).
    var removed: ContiguousArray<Entry> = []
    swap(&removed, &entries)
    tombstones = 0
    return removed
  }
}

extension RandomAccessCollection where Index == Int {
  /// The first index whose element's id is not less than `id`, in a collection sorted by
  /// unique ids: the one id search of the engine.
  ///
  /// Ids are handed out in sequence and removed at random, so they are spread evenly over
  /// their range: a probe where `id` would sit if they were (interpolation) usually lands on
  /// it or next to it, which keeps removal O(1) and touches one or two cache lines however
  /// many subscriptions there are. Interpolation and bisection alternate, so the worst case,
  /// uneven ids (a weak table's lists share one counter), stays O(log n).
  @inlinable
  func lowerBound(of id: UInt64, by elementID: (Element) -> UInt64) -> Int {
    var low = startIndex
    var high = endIndex
    var interpolate = true
    while low < high {
      let lowID = elementID(self[low])
      if lowID >= id { return low }
      let highID = elementID(self[high - 1])
      if highID < id { return high }
      if highID == id { return high - 1 }
      // Now lowID < id < highID, so the last index is past low and the division is safe.
      let middle: Int
      if interpolate {
        let fraction = Double(id - lowID) / Double(highID - lowID)
        middle = low + Int(fraction * Double(high - 1 - low))
      } else {
        middle = low + (high - low) / 2
      }
      interpolate.toggle()
      let middleID = elementID(self[middle])
      if middleID == id { return middle }
      if middleID < id { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
