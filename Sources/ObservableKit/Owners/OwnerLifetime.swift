#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// Ties owner-bound registrations to their owner's life: when the owner is found gone, its
/// registrations end and their handlers are released.
///
/// Each owner gets at most one ``OwnerRecord``, however many registrations it has. The record
/// holds every registration weakly (the source keeps a live registration alive), so once a
/// registration ends (disposed, unsubscribed, its source gone) the owner keeps nothing of the
/// source: not its storage, not a property's value, not a handler.
///
/// Only how the owner's death is heard differs by platform:
/// - **Apple platforms** (`canImport(ObjectiveC)`): the record is the owner's associated
///   object, released while the owner deallocates; its deinit ends the registrations then.
/// - **Elsewhere**: nothing can observe an arbitrary object's death. The records sit in a
///   process-wide table keyed by the owner's identity, with the owner held weakly; a record
///   whose owner is found gone (when the table is swept, every time it has doubled, or when
///   a new owner takes the address) ends its registrations then. Independently, each
///   registration stops delivering and counting the moment its owner is gone, and its source
///   releases its handler at its next notification or count.
///
/// An owner that wants its handlers released during its own deinit on every platform adds the
/// tokens to a ``DisposeBag`` it owns.
@usableFromInline
enum OwnerLifetime {
  /// Ends `token` when `owner` is found gone. `token` must be a ``Subscription`` or an object
  /// the source keeps alive while the registration lasts (its handler captures it): the
  /// record holds it weakly.
  @usableFromInline
  static func bind(_ token: any Disposable, to owner: AnyObject) {
    record(for: owner).add(OwnedRegistration(token))
  }

  /// `bind(_:to:)` for a storage's token, known to be one: no dynamic cast (measured: the
  /// casts were a quarter of the instructions of an owner-bound `observe` and `dispose`).
  @usableFromInline
  static func bind(_ subscription: Subscription, to owner: AnyObject) {
    record(for: owner).add(OwnedRegistration(subscription))
  }

  /// `bind(_:to:)` for a token that is an object, as `OwnerBinding`'s registrations are: no
  /// dynamic cast.
  static func bind(object token: some AnyObject & Disposable, to owner: AnyObject) {
    record(for: owner).add(OwnedRegistration(object: token))
  }

  /// The record of `owner`, made on first use.
  static func record(for owner: AnyObject) -> OwnerRecord {
    #if canImport(ObjectiveC)
    return AssociatedRecords.record(for: owner)
    #else
    return RecordTable.shared.record(for: owner)
    #endif
  }
}

/// One registration as an owner's record keeps it: weakly, so that it keeps nothing alive.
struct OwnedRegistration {
  /// A ``Subscription``'s storage (its `object`), or the token itself.
  weak var target: AnyObject?
  /// The subscription's ID in its storage; 0 for a token.
  let id: UInt64
  /// The subscription's operations; nil for a token.
  let operate: Subscription.Operator?
  /// A token that is not a class instance, held as it is. The library binds only class
  /// tokens: its value token (`InlineSubscription`) is for registrations without an owner.
  let value: (any Disposable)?

  init(_ token: any Disposable) {
    if let subscription = token as? Subscription {
      self = OwnedRegistration(subscription)
    } else if type(of: token as Any) is AnyClass {
      target = token as AnyObject
      id = 0
      operate = nil
      value = nil
    } else {
      target = nil
      id = 0
      operate = nil
      value = token
    }
  }

  init(_ subscription: Subscription) {
    target = subscription.object
    id = subscription.id
    operate = subscription.operate
    value = nil
  }

  init(object token: some AnyObject & Disposable) {
    target = token
    id = 0
    operate = nil
    value = nil
  }

  /// Ends the registration if it still runs. Call it outside the record's lock: it may
  /// release the last reference to the source.
  func end() {
    if let value { return value.dispose() }
    guard let target else { return }
    if let operate {
      _ = operate(target, id, .dispose)
    } else {
      (target as? any Disposable)?.dispose()
    }
  }

  /// Whether the registration has ended: its source or token is gone, or it was disposed.
  /// Call it outside the record's lock, as ``end()``.
  var hasEnded: Bool {
    if let value { return value.isDisposed }
    guard let target else { return true }
    if let operate { return operate(target, id, .check) == nil }
    return (target as? any Disposable)?.isDisposed ?? true
  }
}

/// The registrations of one owner. Ended ones are pruned whenever the list has doubled since
/// the last prune, so it holds at most about twice the live ones, each a weak reference, an
/// ID and a function. Deinitializing the record ends the registrations still running.
///
/// Invariant where the lock is dropped: a prune takes the whole list out under the lock,
/// checks it outside (the checks take the sources' locks and may release a source), and
/// appends the live ones back under the lock. An add meanwhile appends to the emptied list,
/// so nothing is lost. ``endAll()`` cannot run meanwhile: it runs once the owner is gone
/// (the record's deinit, or the table's sweep), and whoever adds holds the owner.
final class OwnerRecord: @unchecked Sendable {
  // `state` is guarded by its own lock (Locked); the weak references in it are loaded only
  // from copies taken under that lock.
  private struct State {
    var registrations: [OwnedRegistration] = []
    var pruneAt = 8
  }

  private let state = Locked(State())

  /// Adds `registration`; prunes the ended ones first when the list has doubled.
  func add(_ registration: OwnedRegistration) {
    let toPrune = state.withLock { state -> [OwnedRegistration]? in
      state.registrations.append(registration)
      guard state.registrations.count >= state.pruneAt else { return nil }
      defer { state.registrations = [] }
      return state.registrations
    }
    guard let toPrune else { return }
    // Outside the lock: the checks take the sources' locks and may release a source.
    schedulePoint("owner record: pruning a copy outside the lock")
    let live = toPrune.filter { !$0.hasEnded }
    schedulePoint("owner record: putting the live registrations back")
    state.withLock { state in
      state.registrations.append(contentsOf: live)
      state.pruneAt = max(8, 2 * state.registrations.count)
    }
  }

  /// How many registrations the record holds, ended ones not yet pruned included.
  var count: Int { state.withLock { $0.registrations.count } }

  /// Ends every registration still running, once.
  func endAll() {
    let registrations = state.withLock { state in
      defer { state.registrations = [] }
      return state.registrations
    }
    for registration in registrations { registration.end() }
  }

  deinit {
    endAll()
  }
}

#if canImport(ObjectiveC)
/// The record rides on the owner as an associated object: the runtime releases it while the
/// owner deallocates, which ends the owner's registrations.
enum AssociatedRecords {
  /// Makes the get-or-create of a record atomic: two first registrations of one owner on two
  /// threads must not make two records.
  private static let creation = Locked(())

  /// A key no one else uses: the address of the record class's metadata.
  private static var key: UnsafeRawPointer {
    UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(OwnerRecord.self)))!
  }

  static func record(for owner: AnyObject) -> OwnerRecord {
    creation.withLock { _ in
      if let record = objc_getAssociatedObject(owner, key) as? OwnerRecord { return record }
      let record = OwnerRecord()
      objc_setAssociatedObject(owner, key, record, .OBJC_ASSOCIATION_RETAIN)
      return record
    }
  }
}
#else
/// The records of live owners where the platform cannot tell when an object dies: a table
/// keyed by the owner's identity, the owner held weakly. A record whose owner is found gone is
/// taken out and ends its registrations.
///
/// Invariant where the lock is dropped: a sweep loads the weak owners of a copy of the table
/// outside the lock (a load may return the last reference to an owner, whose deinit may
/// register), then removes under the lock only the entries that still hold the record it
/// found dead, so a new owner that took the address meanwhile keeps its own record.
final class RecordTable: Sendable {
  static let shared = RecordTable()

  private struct Entry: Sendable {
    let owner: WeakReference
    let record: OwnerRecord
  }

  private struct State: Sendable {
    var entries: [ObjectIdentifier: Entry] = [:]
    /// The size at which the next add sweeps out the records of dead owners.
    var sweepAt = 64
  }

  private let state = Locked(State())

  func record(for owner: AnyObject) -> OwnerRecord {
    let key = ObjectIdentifier(owner)
    let (record, stale, sweep) = state.withLock { state -> (OwnerRecord, OwnerRecord?, [ObjectIdentifier: Entry]?) in
      // Safe to load under the lock: an object at `owner`'s address is either `owner`, which
      // the caller keeps alive, or gone (nil), so no deinit can run here.
      if let entry = state.entries[key], entry.owner.object === owner {
        return (entry.record, nil, nil)
      }
      let stale = state.entries[key]?.record
      let record = OwnerRecord()
      state.entries[key] = Entry(owner: WeakReference(owner), record: record)
      guard state.entries.count >= state.sweepAt else { return (record, stale, nil) }
      state.sweepAt = Int.max  // one sweep at a time; the sweep sets the next threshold
      return (record, stale, state.entries)
    }
    // The record of a dead owner whose address `owner` now has: its registrations end.
    stale?.endAll()
    if let sweep { self.sweep(sweep) }
    return record
  }

  /// Takes out the records of the dead owners among `entries` (a copy taken under the lock)
  /// and ends their registrations. The weak loads happen here, outside the lock: a load may
  /// return the last reference to an owner that another thread is releasing.
  private func sweep(_ entries: [ObjectIdentifier: Entry]) {
    let dead = entries.filter { $0.value.owner.object == nil }
    schedulePoint("owner table: dead owners found outside the lock")
    let removed = state.withLock { state -> [OwnerRecord] in
      var removed: [OwnerRecord] = []
      for (key, entry) in dead where state.entries[key]?.record === entry.record {
        state.entries[key] = nil
        removed.append(entry.record)
      }
      state.sweepAt = max(64, 2 * state.entries.count)
      return removed
    }
    for record in removed { record.endAll() }
  }

  /// How many owners have a record (the dead not yet swept included).
  var count: Int { state.withLock { $0.entries.count } }
}
#endif
