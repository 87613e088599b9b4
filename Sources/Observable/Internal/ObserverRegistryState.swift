import ObservableKit

/// The identity maps of an observer registry, kept in the core storage's state so that the
/// storage lock guards them together with the registrations they index.
///
/// Each observer has one plain registration (the one `withObservers` reaches), made when it
/// is first added by any method, and one registration per key it was added for. Everything
/// here is pure bookkeeping that runs under the lock: it creates handlers but never calls
/// one, and never loads a weak reference.
@usableFromInline
struct ObserverRegistryState {
  typealias Handler = ObserverStorage<ObserverVisit, ObserverRegistryState>.Handler
  /// Makes the handler of one registration of the observer behind a reference.
  typealias HandlerFactory = (WeakReference, ObserverVisit.Kind) -> Handler

  struct Member {
    /// Shared by every registration of this observer; its identity tells a live
    /// registration from one left by a deallocated object at the same address.
    let reference: WeakReference
    /// The plain registration.
    let id: UInt64
    /// Whether the observer was added with `addObserver`, not only for keys.
    var isPlain: Bool
    /// The registration for each key.
    var keys: [AnyHashable: UInt64] = [:]

    var allIDs: [UInt64] { [id] + keys.values }
  }

  private(set) var members: [ObjectIdentifier: Member] = [:]
  /// For each key, its registrations in registration order: one table per key type.
  @usableFromInline private(set) var keyTables: [any KeyTable] = []

  /// Keys with at least one registration.
  var keyCount: Int { keyTables.reduce(0) { $0 + $1.keyCount } }

  /// Registers `identity` plainly (`key == nil`) or for `key`, unless it already is.
  ///
  /// Returns the handlers to add (ids `firstID`, `firstID + 1`, … in order) and the reference
  /// of the member, which is `fresh` unless the identity was registered already.
  mutating func register<Key: Hashable>(
    _ identity: ObjectIdentifier,
    key: Key?,
    fresh: WeakReference,
    firstID: UInt64,
    makeHandler: HandlerFactory
  ) -> (handlers: [Handler], result: WeakReference) {
    var handlers: [Handler] = []
    var nextID = firstID
    var member: Member
    if let existing = members[identity] {
      member = existing
    } else {
      member = Member(reference: fresh, id: nextID, isPlain: false)
      handlers.append(makeHandler(fresh, .plain))
      nextID += 1
    }
    if let key {
      let boxed = AnyHashable(key)
      if member.keys[boxed] == nil {
        member.keys[boxed] = nextID
        table(for: Key.self).append(nextID, forKey: key)
        handlers.append(makeHandler(member.reference, .keyed))
      }
    } else {
      member.isPlain = true
    }
    members[identity] = member
    return (handlers, member.reference)
  }

  /// Forgets `identity` entirely and returns the ids of all its registrations.
  mutating func unregister(_ identity: ObjectIdentifier) -> [UInt64] {
    guard let member = members.removeValue(forKey: identity) else { return [] }
    for (key, id) in member.keys {
      forget(id, in: key)
    }
    return member.allIDs
  }

  /// Forgets `identity`'s registration for `key`, and the observer itself if that was its
  /// last reason to be registered. Returns the ids that ended.
  mutating func unregister(_ identity: ObjectIdentifier, key: AnyHashable) -> [UInt64] {
    guard var member = members[identity], let id = member.keys.removeValue(forKey: key) else {
      return []
    }
    forget(id, in: key)
    if member.keys.isEmpty, !member.isPlain {
      members[identity] = nil
      return [id, member.id]
    }
    members[identity] = member
    return [id]
  }

  /// Forgets `identity` if its registrations still belong to `reference`, whose object has
  /// deallocated. Returns the ids that ended.
  mutating func prune(_ identity: ObjectIdentifier, reference: WeakReference) -> [UInt64] {
    guard members[identity]?.reference === reference else { return [] }
    return unregister(identity)
  }

  /// The registrations for `key`, in registration order.
  @inlinable
  func registrations<Key: Hashable>(for key: Key) -> [UInt64] {
    for table in keyTables {
      if let table = table as? TypedKeyTable<Key> { return table.registrations[key] ?? [] }
    }
    return []
  }

  private mutating func table<Key: Hashable>(for _: Key.Type) -> TypedKeyTable<Key> {
    for table in keyTables {
      if let table = table as? TypedKeyTable<Key> { return table }
    }
    let table = TypedKeyTable<Key>()
    keyTables.append(table)
    return table
  }

  private func forget(_ id: UInt64, in key: AnyHashable) {
    for table in keyTables { table.forget(id, forKey: key) }
  }
}
