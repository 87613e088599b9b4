import ObservableKit

/// The one implementation behind every class of this module: weak, identity-keyed protocol
/// observers, plain and keyed, on top of the core `ObserverStorage`.
///
/// - Storage, locking, registration order and the pass semantics (not reaching registrations
///   made after a pass began, not calling one that ended before its turn) are the core's.
/// - Each observer has one plain registration and one per key (see `ObserverRegistryState`);
///   they change together, in one critical section.
/// - Passes are synchronous and never queued, even when nested: `withObservers` is a visit,
///   not a notification.
/// - No lock is held while user code runs or while a weak reference is loaded.
/// - Where the lock is dropped mid-operation: pruning a dead observer (a pass that finds it
///   gone, or `add` that finds a dead registration at a reused address) loads the weak
///   reference outside the lock, then removes the registration only if it is still that
///   same `WeakReference`; an object that reused the address meanwhile keeps its own.
///
/// A value with reference semantics: copies share one storage. Handlers capture the storage,
/// so the owner must call ``removeAll()`` from its deinit to break that cycle.
@usableFromInline
package struct ObserverRegistry {
  @usableFromInline typealias Storage = ObserverStorage<ObserverVisit, ObserverRegistryState>

  @usableFromInline let storage = Storage(state: ObserverRegistryState())

  init() {}

  // MARK: Registration

  /// Registers `observer` plainly; does nothing if it already is.
  func add(_ observer: AnyObject) {
    add(observer, key: Never?.none)
  }

  /// Registers `observer` plainly (`key == nil`) or for `key`; does nothing if it already is.
  func add<Key: Hashable>(_ observer: AnyObject, key: Key?) {
    let fresh = WeakReference(observer)
    let identity = fresh.identity
    while true {
      let reference = storage.register { state, firstID in
        state.register(identity, key: key, fresh: fresh, firstID: firstID, makeHandler: makeHandler)
      }
      // A registration found under this identity may belong to a deallocated object whose
      // address `observer` reuses. Check outside the lock (it loads the weak reference): the
      // object is either `observer`, which we hold, or gone. If gone, drop it and retry.
      if reference === fresh || reference.object != nil { return }
      schedulePoint("registry: pruning a dead registration found by add")
      prune(identity, reference)
    }
  }

  /// Forgets every registration of `observer`, plain and keyed. Does nothing for a stranger.
  func remove(_ observer: AnyObject) {
    let identity = ObjectIdentifier(observer)
    storage.unregister { $0.unregister(identity) }
  }

  /// Forgets `observer`'s registration for `key`, and `observer` itself if it was only
  /// registered for keys and this was the last.
  func remove(_ observer: AnyObject, key: AnyHashable) {
    let identity = ObjectIdentifier(observer)
    storage.unregister { $0.unregister(identity, key: key) }
  }

  /// Ends every registration; called by the owner's deinit.
  func removeAll() {
    storage.removeAll()
  }

  // MARK: Passes

  /// Calls `body` with every live observer of type `T`, in registration order, now.
  @inlinable
  func visit<T>(_ body: (T) -> Void) {
    var found: AnyObject? = nil
    withUnsafeMutablePointer(to: &found) { found in
      storage.forEachHandler { handler in
        Self.call(handler, kind: .plain, found: found, body)
      }
    }
  }

  /// Calls `body` with every live observer of type `T` registered for `key`, in the order
  /// they were registered for it, now.
  @inlinable
  func visit<Key: Hashable, T>(key: Key, _ body: (T) -> Void) {
    var found: AnyObject? = nil
    withUnsafeMutablePointer(to: &found) { found in
      storage.forEachHandler(selecting: { $0.registrations(for: key) }) { handler in
        Self.call(handler, kind: .keyed, found: found, body)
      }
    }
  }

  /// Asks one registration for its observer and, if it answers with a `T`, calls `body`
  /// with it. The observer stays alive, held by this frame, until `body` returns.
  @inlinable
  static func call<T>(
    _ handler: Storage.Handler,
    kind: ObserverVisit.Kind,
    found: UnsafeMutablePointer<AnyObject?>,
    _ body: (T) -> Void
  ) {
    handler(ObserverVisit(kind: kind, found: found))
    guard let object = found.pointee else { return }
    found.pointee = nil
    if let observer = object as? T { body(observer) }
  }

  // MARK: Introspection

  /// What the registry holds, for the package's tests.
  package struct Census: Equatable, Sendable {
    /// Registered observers, plain or keyed, including deallocated ones not pruned yet.
    package var observers: Int
    /// Keys with at least one registration.
    package var keys: Int
    /// Live registrations in the core storage: one per observer plus one per (key, observer).
    package var registrations: Int

    package init(observers: Int, keys: Int, registrations: Int) {
      self.observers = observers
      self.keys = keys
      self.registrations = registrations
    }
  }

  package var census: Census {
    let (observers, keys) = storage.withLock { ($0.state.members.count, $0.state.keyCount) }
    return Census(observers: observers, keys: keys, registrations: storage.count)
  }

  // MARK: Internals

  /// The handler of one registration. It acts only on passes of its kind, keeps the observer
  /// alive while the pass calls it, and prunes the observer once it has deallocated.
  private func makeHandler(_ reference: WeakReference, _ kind: ObserverVisit.Kind) -> Storage.Handler {
    { [self] visit in
      guard visit.kind == kind else { return }
      guard let observer = reference.object else {
        schedulePoint("registry: pruning a dead observer")
        prune(reference.identity, reference)
        return
      }
      visit.found.pointee = observer
    }
  }

  private func prune(_ identity: ObjectIdentifier, _ reference: WeakReference) {
    storage.unregister { $0.prune(identity, reference: reference) }
  }
}
