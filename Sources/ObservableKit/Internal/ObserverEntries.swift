/// One registered handler. `handler == nil` marks a slot whose subscription ended; such
/// slots are compacted away once they outnumber the live ones.
@usableFromInline
package struct ObserverEntry<Value> {
  @usableFromInline package let id: UInt64
  @usableFromInline package var handler: ((Value) -> Void)?

  @inlinable
  init(id: UInt64, handler: ((Value) -> Void)?) {
    self.id = id
    self.handler = handler
  }
}

/// Everything the storage lock guards.
@usableFromInline
package struct ObserverStorageHeader<Value, State> {
  /// Extra state of the owner (a property's value), guarded by the same lock so that
  /// "register and read the current value" is one atomic step. It comes first: a zero-size
  /// `State` at the end would share its address with the lock-free epoch that follows the
  /// header, and ThreadSanitizer would report accesses to it as races on the epoch.
  @usableFromInline package var state: State
  /// Live entries and tombstones, sorted by `id`, which is registration order.
  @usableFromInline var entries: ContiguousArray<ObserverEntry<Value>> = []
  @usableFromInline var nextID: UInt64 = 1
  @usableFromInline var tombstones = 0
  /// The owner of each owner-bound registration. Never load these references under the
  /// lock: the strong reference a load returns may be the last one.
  @usableFromInline var owners: [UInt64: WeakReference] = [:]

  @inlinable
  init(state: State) {
    self.state = state
  }

  @inlinable var liveCount: Int { entries.count - tombstones }

  /// Ends the registration `id` and returns its entry (nil if it had ended), leaving a
  /// tombstone; the caller advances the epoch and calls ``compactIfNeeded()``.
  ///
  /// It hands out the whole entry rather than the handler: the entry's closure keeps the
  /// storage's abstraction, so nothing is re-thunked (a handler returned as
  /// `(Value) -> Void` from specialized code is converted back, which allocates).
  @inlinable
  package mutating func endEntry(_ id: UInt64) -> ObserverEntry<Value>? {
    guard let index = index(of: id), entries[index].handler != nil else { return nil }
    let entry = entries[index]
    entries[index].handler = nil
    tombstones += 1
    // Skips hashing `id` for the usual registration, which has no owner.
    if !owners.isEmpty { owners[id] = nil }
    return entry
  }

  /// Drops the tombstones once they are at least half of the entries. Tombstones hold no
  /// handlers, so this releases nothing but buffer memory.
  @inlinable
  package mutating func compactIfNeeded() {
    if tombstones >= 8, tombstones * 2 >= entries.count {
      entries.removeAll { $0.handler == nil }
      tombstones = 0
    }
  }

  @inlinable
  func index(of id: UInt64) -> Int? {
    let index = entries.lowerBound(of: id)
    return index < entries.count && entries[index].id == id ? index : nil
  }
}

extension RandomAccessCollection where Index == Int {
  /// The first index whose element's id is not less than `id`, in a collection sorted by
  /// unique ids.
  ///
  /// Ids are handed out in sequence and removed at random, so they are spread evenly over
  /// their range: a probe where `id` would sit if they were (interpolation) usually lands on
  /// it or next to it, which keeps removal O(1) and touches one or two cache lines however
  /// many registrations there are. Interpolation and bisection alternate, so the worst case,
  /// uneven ids, stays O(log n).
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

extension ContiguousArray {
  /// The first index whose entry has an id not less than `id`.
  @inlinable
  func lowerBound<V>(of id: UInt64) -> Int where Element == ObserverEntry<V> {
    lowerBound(of: id) { $0.id }
  }
}
