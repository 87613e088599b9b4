// The locked-array baseline that ObservableKit's numbers are divided by.
//
// The classes are `final` and their methods, initializers and deinitializers `@inlinable`, so
// that a client specializes and inlines them into its loops as it would code of its own
// module (an event made and dropped in a loop stays on the stack, its deinit inlined): the
// baseline must cost what it cost beside the benchmark. count-instructions.sh shows it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex at a fixed heap address: the same lock ObservableKit uses on Linux
/// (`pthread_mutex_lock` on a default mutex).
@usableFromInline
struct PthreadLock: @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @inlinable
  init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  @inlinable
  func destroy() {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inlinable @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// The practical limit for a thread-safe event: a `ContiguousArray` of closures behind a
/// pthread mutex, snapshotted under the lock and called outside it. No tokens: `add`
/// returns a plain id, and `remove` is `firstIndex` + `remove(at:)` on a parallel id array.
/// No re-entrancy handling and no guarantee that a handler removed during a pass in progress
/// is not called by it.
public final class BaselineEvent<Value>: @unchecked Sendable {
  public typealias Handler = @Sendable (Value) -> Void

  @usableFromInline let lock: PthreadLock
  @usableFromInline var handlers: ContiguousArray<Handler>
  @usableFromInline var ids: ContiguousArray<UInt64>
  // Accessed only in `add`, under the lock. Whole-module optimization proves that and drops
  // the dynamic exclusivity check when the class is in the benchmark's module; a client module
  // cannot, so the check is dropped here, keeping the same code.
  @exclusivity(unchecked) @usableFromInline var nextID: UInt64

  // The stored properties are set here rather than by initial values, which a client would
  // call as functions instead of inlining.
  @inlinable
  public init() {
    lock = PthreadLock()
    handlers = []
    ids = []
    nextID = 0
  }

  @inlinable
  deinit {
    lock.destroy()
  }

  @inlinable
  public func add(_ handler: @escaping Handler) -> UInt64 {
    lock.withLock {
      let id = nextID
      nextID += 1
      ids.append(id)
      handlers.append(handler)
      return id
    }
  }

  /// The removed handler is released under the lock: the simplest code, and the cheapest
  /// (handing it out would convert the stored closure back from its generic abstraction,
  /// which allocates a thunk).
  @inlinable
  public func remove(_ id: UInt64) {
    lock.withLock {
      guard let index = ids.firstIndex(of: id) else { return }
      ids.remove(at: index)
      handlers.remove(at: index)
    }
  }

  @inlinable
  public func notify(_ value: Value) {
    let snapshot = lock.withLock { handlers }
    for handler in snapshot {
      handler(value)
    }
  }
}

/// The baseline of a property: the same locked array, plus a value stored under the lock.
public final class BaselineProperty<Value>: @unchecked Sendable {
  public typealias Handler = @Sendable (Value) -> Void

  @usableFromInline let lock: PthreadLock
  @usableFromInline var handlers: ContiguousArray<Handler>
  @usableFromInline var stored: Value

  @inlinable
  public init(_ value: Value) {
    lock = PthreadLock()
    handlers = []
    stored = value
  }

  @inlinable
  deinit {
    lock.destroy()
  }

  @inlinable
  public func add(_ handler: @escaping Handler) {
    lock.withLock { handlers.append(handler) }
  }

  @inlinable
  public var value: Value {
    get { lock.withLock { stored } }
    set {
      let snapshot = lock.withLock {
        stored = newValue
        return handlers
      }
      for handler in snapshot {
        handler(newValue)
      }
    }
  }
}
