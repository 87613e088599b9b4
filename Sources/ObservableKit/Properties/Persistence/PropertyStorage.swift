/// Where a persisted ``Property`` or ``SharedProperty`` keeps its value: the built-in
/// ``PropertyStorage/userDefaults(_:in:)-4task``, or a store of your own (a file, the keychain,
/// iCloud key-value storage).
///
/// ```swift
/// final class Settings {
///   @Property(storage: .userDefaults("launchCount")) var launchCount = 0
/// }
/// ```
///
/// A store reads, writes, compares, and may report changes made elsewhere. The property calls
/// it from the thread that sets or reloads it, never two calls at once for one property, and
/// with no lock of the library held.
public protocol PropertyStorage<Value>: Sendable {
  /// The type of the value stored.
  associatedtype Value
  /// Names the place the value is kept. Properties whose storages have equal locations are
  /// kept in step in this process: a write through one reaches the others as a set.
  associatedtype Location: Hashable & Sendable & CustomStringConvertible

  /// The place the value is kept; its description names it in diagnostics.
  var location: Location { get }

  /// What is stored now.
  func load() -> StoredValue<Value>

  /// Stores `value`. Throwing leaves the stored data as it was.
  func save(_ value: Value) throws

  /// Whether `a` and `b` are the same stored content. A change reported from elsewhere whose
  /// content is the same as the one the property knows is its own write coming back (an
  /// echo), and is not delivered.
  func isSameContent(_ a: StoredValue<Value>, _ b: StoredValue<Value>) -> Bool

  /// Calls `onChange`, from any thread, whenever the stored value may have changed other
  /// than through the properties of this process on ``location``. Returns what ends the
  /// reports. The default reports nothing: such a store relies on
  /// ``Property/reloadFromStorage()``.
  func observeChanges(_ onChange: @escaping @Sendable () -> Void) -> any Disposable
}

extension PropertyStorage {
  /// Reports nothing; see ``PropertyStorage/observeChanges(_:)``.
  public func observeChanges(_ onChange: @escaping @Sendable () -> Void) -> any Disposable {
    CompositeDisposable([])
  }
}

extension PropertyStorage where Value: Equatable {
  /// Compares with `==`; unreadable contents compare by their descriptions.
  public func isSameContent(_ a: StoredValue<Value>, _ b: StoredValue<Value>) -> Bool {
    switch (a, b) {
    case let (.value(x), .value(y)): x == y
    case (.absent, .absent): true
    case let (.unreadable(x), .unreadable(y)): x == y
    default: false
    }
  }
}

/// What a ``PropertyStorage`` holds.
public enum StoredValue<Value> {
  /// A value that reads back as `Value`.
  case value(Value)
  /// Nothing is stored: the property takes its default value.
  case absent
  /// Something is stored that is not a `Value` (another type, or data that does not
  /// decode). The property takes its default value and leaves the stored data alone until
  /// its next set. `description` says what was found, for the diagnostic.
  case unreadable(description: String)
}

extension StoredValue: Sendable where Value: Sendable {}
