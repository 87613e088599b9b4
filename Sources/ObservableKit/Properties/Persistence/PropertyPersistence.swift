// Foundation is imported here, in Properties/Persistence/ only, for the thread checks (`Thread`) and
// the main-queue hop of a confined property's reported changes.
import Foundation

/// What links a ``Property`` to its ``PropertyStorage``: the write-through of every set, the
/// reload of changes made elsewhere, and the echo check. Storage-independent, so that a
/// property's stored member depends on its value type only.
@usableFromInline
class PropertyPersistence<T>: PersistenceNode, @unchecked Sendable {
  /// Writes `update` through to the store, before the set that made it returns (or, when
  /// this persistence is busy on another thread, leaves it for that thread).
  @usableFromInline func wrote(_ update: PropertyUpdate<T>) {}
}

/// A persistence as a member of the properties on one location, whatever its value type.
@usableFromInline
class PersistenceNode: @unchecked Sendable {
  // No state of its own; subclasses name the lock that guards theirs.
  /// Reads the store again, applying a change as one set; see ``Property/reloadFromStorage()``.
  func reload() {}
  /// A change reported from elsewhere: reloads where the property's family says.
  func externalChange() {}
}

/// The persistence of one property on one storage.
///
/// One thread at a time works for it: the one holding `busy`. A write or a reload that
/// finds it busy leaves its job (`pendingWrite`, `reloadRequested`) for that thread, which
/// takes jobs until there are none, so stores see writes in the order of the versions they
/// carry and never a call overlapping another. Invariant where the lock is dropped (around
/// `save`, `load` and the property's commit, which run store and Observation code): only the
/// busy thread reads or writes the store for this property, and `written` only grows, so a
/// write of an older version found after a newer one was stored or loaded is dropped.
final class StoredPropertyPersistence<Storage: PropertyStorage>: PropertyPersistence<Storage.Value>, @unchecked Sendable {
  // `state` (a `Locked`, its own mutex) guards every mutable member; `storage` is Sendable;
  // `defaultValue` is immutable and read only by the thread holding `busy`, where the
  // property's own rules allow its values (its domain, or any thread for SharedProperty).
  typealias Value = Storage.Value

  private struct State {
    /// What the store holds as far as this property knows: what it last loaded or saved.
    var known: StoredValue<Value>
    /// The newest version of the property that the store holds (saved, or loaded into it).
    var written: UInt64 = 0
    var pendingWrite: (version: UInt64, value: Value)?
    var reloadRequested = false
    var busy = false
  }

  /// Where a change reported from elsewhere is applied.
  enum Delivery {
    /// A ``SharedProperty``: on the reporting thread.
    case anyThread
    /// A ``Property`` made on the thread `thread` (the main thread if `isMain`).
    case confined(thread: ObjectIdentifier, isMain: Bool)
  }

  private let storage: Storage
  private let defaultValue: Value
  private let state: Locked<State>
  private let delivery: Delivery
  private weak var property: Property<Value>?
  private var group: PersistenceGroup?
  private var reports: (any Disposable)?

  /// Loads the start value: the stored one if it decodes, else `defaultValue` (with a
  /// debug-build diagnostic if what is stored does not read back).
  init(storage: Storage, defaultValue: Value, delivery: Delivery) {
    self.storage = storage
    self.defaultValue = defaultValue
    self.delivery = delivery
    state = Locked(State(known: storage.load()))
    super.init()
  }

  /// The value the property starts with.
  var startValue: Value {
    switch state.withLock({ $0.known }) {
    case .value(let value): return value
    case .absent: return defaultValue
    case .unreadable(let description):
      PersistenceDiagnostics.unreadable(storage.location, Value.self, description)
      return defaultValue
    }
  }

  /// Connects the made property: the version it starts at is the stored one, and changes
  /// from elsewhere start to arrive.
  func attach(to property: Property<Value>) {
    self.property = property
    state.withLock { $0.written = 1 }
    group = PersistenceGroup.join(storage.location, self)
    reports = storage.observeChanges { [weak self] in self?.externalChange() }
  }

  deinit {
    reports?.dispose()
  }

  override func wrote(_ update: PropertyUpdate<Value>) {
    let works = state.withLock { state -> Bool in
      guard update.version > state.written, update.version > (state.pendingWrite?.version ?? 0) else { return false }
      state.pendingWrite = (update.version, update.value)
      if state.busy { return false }
      state.busy = true
      return true
    }
    if works { work() }
  }

  override func reload() {
    let works = state.withLock { state -> Bool in
      state.reloadRequested = true
      if state.busy { return false }
      state.busy = true
      return true
    }
    if works { work() }
  }

  override func externalChange() {
    switch delivery {
    case .anyThread:
      reload()
    case let .confined(thread, isMain):
      if ObjectIdentifier(Thread.current) == thread {
        reload()
      } else if isMain {
        // Applied where the property lives, reading the store again then.
        DispatchQueue.main.async { [self] in reload() }
      } else if !storage.isSameContent(storage.load(), state.withLock({ $0.known })) {
        // Reading the store is safe from any thread; only the property is confined.
        PersistenceDiagnostics.changedOnAnotherThread(storage.location)
      }
    }
  }

  private enum Job {
    case write(version: UInt64, value: Value)
    case reload
  }

  /// Takes jobs until there are none, holding `busy`; then delivers the sets that reloads
  /// made, and tells the other properties on the location about the writes.
  private func work() {
    var made: [(Property<Value>, Property<Value>.Committed)] = []
    var saved = false
    while true {
      let job = state.withLock { state -> Job? in
        if let write = state.pendingWrite {
          state.pendingWrite = nil
          return .write(version: write.version, value: write.value)
        }
        if state.reloadRequested {
          state.reloadRequested = false
          return .reload
        }
        state.busy = false
        return nil
      }
      guard let job else { break }
      switch job {
      case let .write(version, value):
        schedulePoint("persistence: saving a set")
        if state.withLock({ version <= $0.written }) { continue }
        do {
          try storage.save(value)
          state.withLock { state in
            state.known = .value(value)
            state.written = max(state.written, version)
          }
          saved = true
        } catch {
          PersistenceDiagnostics.unsaved(storage.location, Value.self, error)
        }
      case .reload:
        guard let property else { continue }
        let version = property.storage.withLock { $0.state.version }
        let read = storage.load()
        let known = state.withLock { $0.known }
        if storage.isSameContent(read, known) { continue }
        let newValue: Value
        switch read {
        case .value(let value): newValue = value
        case .absent: newValue = defaultValue
        case .unreadable(let description):
          PersistenceDiagnostics.unreadable(storage.location, Value.self, description)
          newValue = defaultValue
        }
        schedulePoint("persistence: a reload commits")
        // Applied only if no set came since the version was read: a set made meanwhile is
        // newer than what the store held, and its write (pending, as this thread is busy)
        // stores it over the change.
        let committed = property.commit { state in
          state.version == version ? state.replace(with: newValue) : nil
        }
        state.withLock { state in
          state.known = read
          if let committed { state.written = max(state.written, committed.update.version) }
        }
        if let committed { made.append((property, committed)) }
      }
    }
    for (property, committed) in made {
      property.publish(committed.update, from: committed.snapshot, turnTaken: committed.turnTaken)
    }
    if saved { group?.changed(by: self) }
  }
}

/// The persistences of one location in this process, so that a write through one reaches
/// the others on every platform, whether or not the platform reports it.
final class PersistenceGroup: Sendable {
  // `members` (a `Locked`, its own mutex) guards the list; the registry its table.
  private let members = Locked<[WeakReference]>([])

  private static let registry = Locked<[Key: WeakReference]>([:])

  /// A location of any storage type, as a table key.
  private struct Key: Hashable, @unchecked Sendable {
    // Made only from a Sendable location (`join`), which `AnyHashable` wraps immutably.
    let location: AnyHashable
  }

  /// The group of `location`, with `node` added to it.
  static func join(_ location: some Hashable & Sendable, _ node: PersistenceNode) -> PersistenceGroup {
    let key = Key(location: AnyHashable(location))
    let group = registry.withLock { table -> PersistenceGroup in
      // Loading a weak reference under the lock is safe here: the group's deinit takes no
      // lock. Entries whose groups have gone are dropped as the table is visited.
      if let existing = table[key]?.object as? PersistenceGroup { return existing }
      table = table.filter { $0.value.object != nil }
      let made = PersistenceGroup()
      table[key] = WeakReference(made)
      return made
    }
    group.members.withLock { members in
      members.removeAll { $0.object == nil }
      members.append(WeakReference(node))
    }
    return group
  }

  /// Tells every other live member that the stored value changed.
  func changed(by sender: PersistenceNode) {
    let others = members.withLock { $0 }.compactMap { $0.object as? PersistenceNode }.filter { $0 !== sender }
    for other in others { other.externalChange() }
  }
}

/// The debug-build diagnostics of persisted properties, and where they go.
package enum PersistenceDiagnostics {
  #if DEBUG
  private static let sink = Locked<@Sendable (String) -> Void>({ print($0) })

  /// Sends the diagnostics to `handler` while `body` runs, for the tests.
  package static func withDiagnostics<R>(sentTo handler: @escaping @Sendable (String) -> Void, _ body: () throws -> R) rethrows -> R {
    let previous = sink.withLock { sink in
      defer { sink = handler }
      return sink
    }
    defer { sink.withLock { $0 = previous } }
    return try body()
  }
  #endif

  private static func say(_ message: @autoclosure () -> String) {
    #if DEBUG
    let send = sink.withLock { $0 }
    send("ObservableKit warning: " + message() + " (Debug builds only.)")
    #endif
  }

  static func unreadable(_ location: some CustomStringConvertible, _ type: Any.Type, _ found: String) {
    say("\(location) holds \(found), not a \(String(reflecting: type)). The property starts at its default value; the stored data is left as it is until the property is set.")
  }

  static func unsaved(_ location: some CustomStringConvertible, _ type: Any.Type, _ error: any Error) {
    say("\(location): a \(String(reflecting: type)) could not be saved (\(error)). The stored data is left as it was.")
  }

  static func changedOnAnotherThread(_ location: some CustomStringConvertible) {
    say("\(location) changed on another thread than the one that made its Property. A Property made off the main thread applies such a change at its next reloadFromStorage(), called in its own isolation domain; use SharedProperty to follow changes from any thread.")
  }
}
