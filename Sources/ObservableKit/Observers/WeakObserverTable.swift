/// One registration: an observer, held weakly, and its place in the order.
struct WeakRegistration {
  /// Grows with each registration of the list, so it is the registration order.
  let id: UInt64
  /// nil once the registration ended: a tombstone until the next compaction.
  var reference: WeakReference?
}

/// The registrations of one list: the keyless one, or one key's.
struct WeakRegistrations {
  /// In registration order, with tombstones. A visit takes this buffer by reference.
  private(set) var items: ContiguousArray<WeakRegistration> = []
  /// Where each registered identity sits in `items`.
  private var positions: [ObjectIdentifier: Int] = [:]
  private var tombstones = 0

  var isEmpty: Bool { positions.isEmpty }
  /// Registrations held, live or dead.
  var count: Int { positions.count }

  func reference(for identity: ObjectIdentifier) -> WeakReference? {
    positions[identity].flatMap { items[$0].reference }
  }

  /// Appends `reference` unless its identity is registered; returns the registered one then.
  mutating func add(_ reference: WeakReference, id: UInt64) -> WeakReference? {
    if let existing = self.reference(for: reference.identity) { return existing }
    positions[reference.identity] = items.count
    items.append(WeakRegistration(id: id, reference: reference))
    return nil
  }

  /// Ends the registration of `identity`, if it is `expected` when one is given; returns it.
  mutating func remove(_ identity: ObjectIdentifier, ifItIs expected: WeakReference? = nil) -> WeakReference? {
    guard let position = positions[identity] else { return nil }
    let reference = items[position].reference
    if let expected, expected !== reference { return nil }
    positions[identity] = nil
    items[position].reference = nil
    tombstones += 1
    // Compacting once tombstones are half the buffer costs O(1) amortized per removal.
    if tombstones >= 8, tombstones * 2 >= items.count {
      items.removeAll { $0.reference == nil }
      tombstones = 0
      for (position, item) in items.enumerated() { positions[item.reference!.identity] = position }
    }
    return reference
  }
}

/// Everything the lock of a weak observer list guards.
struct WeakObserverListState<Key: Hashable> {
  var unkeyed = WeakRegistrations()
  /// A key with no registration left has no entry, so the dictionary does not grow forever.
  var keyed: [Key: WeakRegistrations] = [:]
  var nextID: UInt64 = 0

  /// The buffer a visit of `key` (nil: the keyless list) starts from.
  func items(for key: Key?) -> ContiguousArray<WeakRegistration> {
    guard let key else { return unkeyed.items }
    return keyed[key]?.items ?? []
  }

  func registrations(for key: Key?) -> WeakRegistrations? {
    guard let key else { return unkeyed }
    return keyed[key]
  }

  /// Runs `body` on the registrations of `key`. Moved out of the dictionary, they are
  /// uniquely referenced unless a visit holds them, so `body` changes them in place.
  mutating func modify<R>(_ key: Key?, _ body: (inout WeakRegistrations) -> R) -> R {
    guard let key else { return body(&unkeyed) }
    var registrations = keyed.removeValue(forKey: key) ?? WeakRegistrations()
    defer { if !registrations.isEmpty { keyed[key] = registrations } }
    return body(&registrations)
  }

  mutating func add(_ reference: WeakReference, for key: Key?) -> WeakReference? {
    let id = nextID
    let existing = modify(key) { $0.add(reference, id: id) }
    if existing == nil { nextID += 1 }
    return existing
  }
}

/// The machinery of ``WeakObserverList`` and ``KeyedWeakObserverList``, on observers
/// erased to `AnyObject`. A `nil` key means the keyless list.
///
/// Weak references are loaded only outside the lock: the strong reference a load returns
/// may be the last one, and releasing it runs the observer's deinit.
struct WeakObserverTable<Key: Hashable> {
  private let locked = Locked(WeakObserverListState<Key>())

  func add(_ object: AnyObject, for key: Key?) {
    let fresh = WeakReference(object)
    while let existing = locked.withLock({ $0.add(fresh, for: key) }) {
      // `object` is registered already, unless `existing` belongs to a dead object whose
      // address `object` reuses: it then loads nil (we hold `object`). Drop it and retry.
      if existing.object != nil { return }
      prune([existing], for: key)
    }
  }

  func remove(_ object: AnyObject, for key: Key?) {
    // The removed reference is released when this statement ends, after the lock.
    _ = locked.withLock { state in
      let removed = state.modify(key) { $0.remove(ObjectIdentifier(object)) }
      // Tells visits in progress that their snapshot may hold an ended registration.
      if removed != nil { locked.advanceEpochLocked() }
      return removed
    }
  }

  func removeAll() {
    _ = locked.withLock { state in
      let removed = (state.unkeyed, state.keyed)
      state.unkeyed = WeakRegistrations()
      state.keyed = [:]
      locked.advanceEpochLocked()
      return removed
    }
  }

  func contains(_ object: AnyObject, for key: Key?) -> Bool {
    let reference = locked.withLock { $0.registrations(for: key)?.reference(for: ObjectIdentifier(object)) }
    return reference?.object === object
  }

  /// Registrations held, live or dead, in every list, and keys that have a list.
  var census: (registrations: Int, keys: Int) {
    locked.withLock { state in
      (state.keyed.values.reduce(state.unkeyed.count) { $0 + $1.count }, state.keyed.count)
    }
  }

  /// Counts live observers, stopping at `limit`, and prunes the dead ones it passes.
  func count(for key: Key?, limit: Int = .max) -> Int {
    var items = locked.withLock { $0.items(for: key) }
    var live = 0
    var dead: [WeakReference] = []
    for item in items {
      guard live < limit else { break }
      guard let reference = item.reference else { continue }
      if reference.object != nil { live += 1 } else { dead.append(reference) }
    }
    items = []  // So that the prune changes the buffer in place, not a copy.
    prune(dead, for: key)
    return live
  }

  /// Calls `body` with each live observer of `key`'s list, in registration order, now.
  ///
  /// The pass starts from the list's buffer, shared, not copied. Before each call one
  /// atomic load of the epoch tells whether a registration ended since; if one did, the pass
  /// takes a fresh buffer and resumes at the same registration. Registrations whose id is
  /// past the snapshot's `end` were made during the pass and are not reached.
  func forEach(for key: Key?, _ body: (consuming AnyObject) throws -> Void) rethrows {
    var (items, epoch, end) = locked.withLock { ($0.items(for: key), locked.epoch, $0.nextID) }
    var index = 0
    var dead: [WeakReference] = []
    while index < items.count {
      let item = items[index]
      index += 1
      guard item.id < end else { break }
      guard let reference = item.reference else { continue }
      if locked.epoch != epoch {
        (items, epoch) = locked.withLock { ($0.items(for: key), locked.epoch) }
        index = items.firstIndex(notBefore: item.id)
        continue
      }
      // This strong reference keeps the observer alive until its call returns.
      guard let object = reference.object else {
        dead.append(reference)  // Allocates only once an observer has died.
        continue
      }
      try body(object)
    }
    items = []  // So that the prune changes the buffer in place, not a copy.
    prune(dead, for: key)
  }

  /// Drops the registrations of dead observers, except those that ended or were replaced
  /// already. Dead observers are never called, so visits in progress need no new epoch.
  private func prune(_ dead: [WeakReference], for key: Key?) {
    guard !dead.isEmpty else { return }
    // The references leave the state here and are released after the lock.
    _ = locked.withLock { state in
      state.modify(key) { registrations in
        dead.map { registrations.remove($0.identity, ifItIs: $0) }
      }
    }
  }
}

extension ContiguousArray where Element == WeakRegistration {
  /// The index of the first registration with `id` or a later one (ids ascend).
  fileprivate func firstIndex(notBefore id: UInt64) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low
  }
}

// What the lists hold, dead observers included, for the package's tests.
extension WeakObserverList {
  package var storedRegistrationCount: Int { table.census.registrations }
}

extension KeyedWeakObserverList {
  package var storedRegistrationCount: Int { table.census.registrations }
  package var storedKeyCount: Int { table.census.keys }
}

/// `observer` as the object to hold weakly. A value that is not a class instance would be
/// boxed afresh and die at once, so it is a programming error.
func weakObserverObject<Observer>(_ observer: Observer) -> AnyObject {
  precondition(
    type(of: observer as Any) is AnyClass,
    "WeakObserverList: an observer must be a class instance, not a \(type(of: observer as Any))"
  )
  return observer as AnyObject
}
