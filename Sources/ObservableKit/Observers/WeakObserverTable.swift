// The state and the lock behind `WeakObserverList` and `KeyedWeakObserverList`, on the
// engine's subscription bag: each list is a `SubscriptionBag` of weak references, visited by
// the engine's one pass (`Internal/ObserverListLock+Pass.swift`). This file adds what is
// particular to observers held weakly: each identity once per list, the members of a keyed
// table, and the pruning of dead observers.
//
// Invariants (the lock guards all the state):
// - Each list (the keyless one, or one key's) holds an identity at most once. Ids come from
//   the table's one counter, so a list is in subscription order, and a list emptied and made
//   again never reuses an id: a visit that stops at the `nextID` of its snapshot never
//   reaches a subscription made after it began.
// - A keyed table also keeps its members: every observer in any of its lists, once, in the
//   order it joined the first. All the subscriptions of one member hold the member's one
//   `WeakReference`, and a member leaves when its last subscription ends, with all of them.
// - Weak references are loaded only outside the lock: the strong reference a load returns
//   may be the last one, and releasing it runs the observer's deinit.
// - The windows where the lock is let go between finding a dead observer and removing it
//   (a visit or a count that loaded nil; an `add` that found a dead subscription at the
//   address of the object it adds) end in a prune that removes a subscription only if it
//   still holds the dead `WeakReference` it found: an object that reused the address
//   meanwhile keeps its own. In a keyed table the prune removes the dead member from every
//   list. Schedule points mark both windows for the test suite's schedule explorer. A prune
//   moves no epoch: dead observers are never called, so visits in progress lose nothing.

/// One subscription of a list's bag: an observer, held weakly, and its place in the order.
@usableFromInline
struct WeakSubscription: BagEntry {
  /// From the table's one counter, so it is the subscription order.
  @usableFromInline let id: UInt64
  /// nil once the subscription ended: a tombstone until the next compaction.
  @usableFromInline var payload: WeakReference?

  @inlinable
  init(id: UInt64, payload: WeakReference) {
    self.id = id
    self.payload = payload
  }
}

/// The subscriptions of one list: the keyless one, one key's, or a keyed table's members.
@usableFromInline
struct WeakSubscriptions {
  /// In subscription order, with tombstones. A visit takes its buffer by reference.
  @usableFromInline private(set) var bag = SubscriptionBag<WeakSubscription>()
  /// The id of each registered identity's subscription in `bag`.
  private var ids: [ObjectIdentifier: UInt64] = [:]

  var isEmpty: Bool { ids.isEmpty }
  /// Subscriptions held, live or dead.
  var count: Int { ids.count }

  func reference(for identity: ObjectIdentifier) -> WeakReference? {
    ids[identity].flatMap { bag.payload(of: $0) }
  }

  /// Appends `reference` unless its identity is registered; returns the registered one then.
  mutating func add(_ reference: WeakReference, id: UInt64) -> WeakReference? {
    if let existing = self.reference(for: reference.identity) { return existing }
    ids[reference.identity] = id
    bag.append(reference, id: id)
    return nil
  }

  /// Ends the subscription of `identity`, if it is `expected` when one is given; returns it.
  @discardableResult
  mutating func remove(_ identity: ObjectIdentifier, ifItIs expected: WeakReference? = nil) -> WeakReference? {
    guard let id = ids[identity] else { return nil }
    if let expected, expected !== bag.payload(of: id) { return nil }
    ids[identity] = nil
    return bag.remove(id)
  }
}

/// Which list of a table a visit, a count or a lookup reads.
@usableFromInline
enum WeakObserverListSelection<Key: Hashable> {
  /// The observers added without a key.
  case keyless
  /// The observers added for one key.
  case key(Key)
  /// A keyed table's members: every observer in any list, once.
  case members
}

/// Everything the lock of a weak observer list guards.
@usableFromInline
struct WeakObserverListState<Key: Hashable> {
  /// Whether the table keeps `members` and `keysOf` (keyed tables do).
  @usableFromInline let tracksMembers: Bool
  @usableFromInline var unkeyed = WeakSubscriptions()
  /// A key with no subscription left has no entry, so the dictionary does not grow forever.
  @usableFromInline var keyed: [Key: WeakSubscriptions] = [:]
  /// Keyed tables only: every observer in any list, in the order it joined the first.
  @usableFromInline var members = WeakSubscriptions()
  /// Keyed tables only: the keys each member is registered for; no entry when none.
  var keysOf: [ObjectIdentifier: [Key]] = [:]
  @usableFromInline var nextID: UInt64 = 0

  init(tracksMembers: Bool) {
    self.tracksMembers = tracksMembers
  }

  func subscriptions(in list: WeakObserverListSelection<Key>) -> WeakSubscriptions? {
    switch list {
    case .keyless: unkeyed
    case .key(let key): keyed[key]
    case .members: tracksMembers ? members : unkeyed
    }
  }

  /// The entries a visit of `list` starts from (the bag's buffer only, not a copy of its
  /// index).
  @inlinable
  func entries(in list: WeakObserverListSelection<Key>) -> ContiguousArray<WeakSubscription> {
    switch list {
    case .keyless: unkeyed.bag.entries
    case .key(let key): keyed[key]?.bag.entries ?? []
    case .members: tracksMembers ? members.bag.entries : unkeyed.bag.entries
    }
  }

  /// Runs `body` on the subscriptions of `key` (nil: the keyless list). Moved out of the
  /// dictionary, they are uniquely referenced unless a visit holds them, so `body` changes
  /// them in place.
  mutating func modify<R>(_ key: Key?, _ body: (inout WeakSubscriptions) -> R) -> R {
    guard let key else { return body(&unkeyed) }
    var subscriptions = keyed.removeValue(forKey: key) ?? WeakSubscriptions()
    defer { if !subscriptions.isEmpty { keyed[key] = subscriptions } }
    return body(&subscriptions)
  }

  /// Registers `fresh` for `key` (nil: the keyless list), unless its identity is registered
  /// there already.
  ///
  /// Returns a registered reference of the same identity that the caller must check outside
  /// the lock, since it may belong to a dead object whose address `fresh`'s reuses: the
  /// list's subscription, or in a keyed table the member's, unless it is `confirmed`, which
  /// the caller found alive.
  mutating func add(_ fresh: WeakReference, for key: Key?, confirmed: WeakReference?) -> WeakReference? {
    let identity = fresh.identity
    var reference = fresh
    if tracksMembers {
      if let member = members.reference(for: identity) {
        guard member === confirmed else { return member }
        reference = member
      } else {
        _ = members.add(fresh, id: nextID)
        nextID += 1
      }
    }
    let id = nextID
    if let existing = modify(key, { $0.add(reference, id: id) }) {
      return tracksMembers ? nil : existing
    }
    nextID += 1
    if tracksMembers, let key { keysOf[identity, default: []].append(key) }
    return nil
  }

  /// Ends the subscription of `identity` for `key` (nil: the keyless list), and in a keyed
  /// table its membership if that was its last. Returns what was removed.
  mutating func remove(_ identity: ObjectIdentifier, for key: Key?) -> [WeakReference] {
    guard let removed = modify(key, { $0.remove(identity) }) else { return [] }
    guard tracksMembers else { return [removed] }
    if let key, var keys = keysOf.removeValue(forKey: identity) {
      keys.removeAll { $0 == key }
      if !keys.isEmpty { keysOf[identity] = keys }
    }
    if keysOf[identity] == nil, unkeyed.reference(for: identity) == nil {
      members.remove(identity)
    }
    return [removed]
  }

  /// Ends every subscription of `identity`, if they still hold `expected` when one is
  /// given. Returns what was removed.
  mutating func removeFromAllLists(_ identity: ObjectIdentifier, ifItIs expected: WeakReference? = nil) -> [WeakReference] {
    guard tracksMembers else { return unkeyed.remove(identity, ifItIs: expected).map { [$0] } ?? [] }
    guard let member = members.remove(identity, ifItIs: expected) else { return [] }
    var removed = [member]
    if let reference = unkeyed.remove(identity) { removed.append(reference) }
    for key in keysOf.removeValue(forKey: identity) ?? [] {
      if let reference = modify(key, { $0.remove(identity) }) { removed.append(reference) }
    }
    return removed
  }
}

/// The machinery of ``WeakObserverList`` and ``KeyedWeakObserverList``, on observers
/// erased to `AnyObject`. A `nil` key means the keyless list. See the invariants at the top
/// of this file.
@usableFromInline
struct WeakObserverTable<Key: Hashable> {
  @usableFromInline let locked: ObserverListLock<WeakObserverListState<Key>>
  private let tracksMembers: Bool

  init(tracksMembers: Bool) {
    locked = ObserverListLock(WeakObserverListState(tracksMembers: tracksMembers))
    self.tracksMembers = tracksMembers
  }

  func add(_ object: AnyObject, for key: Key?) {
    let fresh = WeakReference(object)
    var confirmed: WeakReference? = nil
    while let found = locked.withLock({ $0.add(fresh, for: key, confirmed: confirmed) }) {
      // `found` belongs to `object` (we hold it, so it loads non-nil), or to a dead object
      // whose address `object` reuses: drop that one then, and retry.
      guard found.object == nil else {
        // In the list already; or, in a keyed table, a member to register with `found`.
        guard tracksMembers else { return }
        confirmed = found
        continue
      }
      schedulePoint("observer list: add pruning a dead observer at a reused address")
      prune([found])
      confirmed = nil
    }
  }

  func remove(_ object: AnyObject, for key: Key?) {
    // The removed references are released when this statement ends, after the lock.
    _ = locked.withLock { state in
      let removed = state.remove(ObjectIdentifier(object), for: key)
      // Tells visits in progress that their snapshot may hold an ended subscription.
      if !removed.isEmpty { locked.advanceEpochLocked() }
      return removed
    }
  }

  func removeFromAllLists(_ object: AnyObject) {
    _ = locked.withLock { state in
      let removed = state.removeFromAllLists(ObjectIdentifier(object))
      if !removed.isEmpty { locked.advanceEpochLocked() }
      return removed
    }
  }

  func removeAll() {
    _ = locked.withLock { state in
      let removed = (state.unkeyed, state.keyed, state.members, state.keysOf)
      // The ids go on: a visit in progress stops at the `nextID` it saw, and must not take
      // the subscriptions made from now on for its own.
      let nextID = state.nextID
      state = WeakObserverListState(tracksMembers: state.tracksMembers)
      state.nextID = nextID
      locked.advanceEpochLocked()
      return removed
    }
  }

  func contains(_ object: AnyObject, in list: WeakObserverListSelection<Key>) -> Bool {
    let reference = locked.withLock { $0.subscriptions(in: list)?.reference(for: ObjectIdentifier(object)) }
    return reference?.object === object
  }

  /// Subscriptions held, live or dead: members, keyless and keyed ones; and keys that have
  /// a list.
  var census: (members: Int, keyless: Int, keyed: Int, keys: Int) {
    locked.withLock { state in
      (state.members.count, state.unkeyed.count, state.keyed.values.reduce(0) { $0 + $1.count }, state.keyed.count)
    }
  }

  /// Counts live observers, stopping at `limit`, and prunes the dead ones it passes.
  func count(in list: WeakObserverListSelection<Key>, limit: Int = .max) -> Int {
    var entries = locked.withLock { $0.entries(in: list) }
    var live = 0
    var dead: [WeakReference] = []
    for entry in entries {
      guard live < limit else { break }
      guard let reference = entry.payload else { continue }
      if reference.object != nil { live += 1 } else { dead.append(reference) }
    }
    entries = []  // So that the prune changes the buffer in place, not a copy.
    if !dead.isEmpty {
      schedulePoint("observer list: count pruning a dead observer")
      prune(dead)
    }
    return live
  }

  /// Calls `body` with each live observer of `list`, in subscription order, now: the
  /// engine's pass (see `ObserverListLock+Pass.swift`) over the list's bag, which it shares,
  /// not copies. Subscriptions made during the visit are not reached, nor those removed
  /// before their turn. Always inlined into the visits, as the inliner did with the pass
  /// this table had of its own. S6 withObservers in count-instructions.sh moves a little
  /// from build to build: the runtime's conformance lookup behind the caller's `as?` costs
  /// what the binary's layout makes it; the shared loop itself costs a few instructions per
  /// observer more than this table's own loop did.
  @inlinable @inline(__always)
  func forEach(in list: WeakObserverListSelection<Key>, _ body: (consuming AnyObject) throws -> Void) rethrows {
    var dead: [WeakReference] = []
    // The snapshot is a temporary: the pass's buffer is released when the pass returns, so
    // that the prune changes the buffer in place, not a copy.
    try locked.pass(
      over: locked.withLock { locked.snapshotLocked($0.entries(in: list), boundary: $0.nextID) },
      throughBuffer: false,
      current: { $0.entries(in: list) }
    ) { reference in
      // This strong reference keeps the observer alive until its call returns.
      guard let object = reference.object else {
        dead.append(reference)  // Allocates only once an observer has died.
        return
      }
      try body(object)
    }
    if !dead.isEmpty {
      schedulePoint("observer list: visit pruning a dead observer")
      prune(dead)
    }
  }

  /// Drops the subscriptions of dead observers, from every list in a keyed table, except
  /// those that ended or were replaced already. Dead observers are never called, so visits
  /// in progress need no new epoch.
  @usableFromInline
  func prune(_ dead: [WeakReference]) {
    // The references leave the state here and are released after the lock.
    _ = locked.withLock { state in
      dead.map { state.removeFromAllLists($0.identity, ifItIs: $0) }
    }
  }
}

/// What a list holds, dead observers included, for the package's tests.
package protocol StoredObserverCounts: AnyObject {
  /// Subscriptions in the keyless list and in every key's.
  var storedSubscriptionCount: Int { get }
  /// Keys that have a list.
  var storedKeyCount: Int { get }
  /// Observers in any list (a keyed list's members; the keyless list's otherwise).
  var storedMemberCount: Int { get }
  /// Subscriptions in the lists of keys.
  var storedKeyedSubscriptionCount: Int { get }
  /// Entries written in every list, a keyed list's members included: what the
  /// subscriptions cost.
  var storedEntryCount: Int { get }
}

extension WeakObserverList: StoredObserverCounts {
  package var storedSubscriptionCount: Int { table.census.keyless }
  package var storedKeyCount: Int { 0 }
  package var storedMemberCount: Int { table.census.keyless }
  package var storedKeyedSubscriptionCount: Int { 0 }
  package var storedEntryCount: Int { table.census.keyless }
}

extension KeyedWeakObserverList: StoredObserverCounts {
  package var storedSubscriptionCount: Int { table.census.keyless + table.census.keyed }
  package var storedKeyCount: Int { table.census.keys }
  package var storedMemberCount: Int { table.census.members }
  package var storedKeyedSubscriptionCount: Int { table.census.keyed }
  package var storedEntryCount: Int {
    let census = table.census
    return census.members + census.keyless + census.keyed
  }
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
