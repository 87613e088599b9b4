// Foundation is imported here, in Persistence/ only: `UserDefaults` and its change
// notification are Foundation's, and a persisted property must reach them (the core
// imports no Foundation otherwise; `.ci/run` checks both).
import Foundation

/// A value kept in `UserDefaults` under one key: what ``PropertyStorage/userDefaults(_:in:)``
/// makes.
///
/// Property-list values (`Bool`, `Int`, `Double`, `String`, `Data`, `Date`, arrays and
/// `String`-keyed dictionaries of them, and optionals of those, where `nil` removes the key)
/// are stored as themselves, so `defaults.integer(forKey:)` and `@AppStorage` read them. Any
/// other `Codable` value is stored as JSON `Data` (keys sorted, so equal values store equal
/// data).
///
/// Changes made in this process with `defaults.set(_:forKey:)` or
/// `removeObject(forKey:)` are reported where the platform posts
/// `UserDefaults.didChangeNotification` for them: Apple platforms do, on the writing thread;
/// swift-corelibs-foundation (Linux, Windows) posts it only for persistent-domain calls, so
/// there call ``Property/reloadFromStorage()`` after such a write. Writes through another
/// property on the same key and the same `UserDefaults` object reach the property on every
/// platform.
public struct UserDefaultsStorage<Value: Codable>: PropertyStorage, @unchecked Sendable {
  // `UserDefaults` is thread-safe (Apple documents it so, and swift-corelibs-foundation
  // guards its state with a lock) but not marked Sendable on every platform; the other
  // stored members are immutable values.
  private let defaults: UserDefaults
  private let key: String
  /// Whether `Value` is stored as a property-list value rather than as JSON.
  private let isPropertyList: Bool

  /// The key and the `UserDefaults` object: two properties on an equal location are kept
  /// in step.
  public struct Location: Hashable, Sendable, CustomStringConvertible {
    /// The key.
    public let key: String
    let store: ObjectIdentifier
    /// `key "name"`, for diagnostics.
    public var description: String { "UserDefaults key \"\(key)\"" }
  }

  /// Keeps values under `key` in `defaults`.
  public init(_ key: String, in defaults: UserDefaults = .standard) {
    self.defaults = defaults
    self.key = key
    isPropertyList = Value.self is any PropertyListValue.Type
  }

  /// The key and the `UserDefaults` object: properties on the same location share writes.
  public var location: Location { Location(key: key, store: ObjectIdentifier(defaults)) }

  /// The value under the key: a property-list value as itself, any other as JSON data;
  /// `.unreadable` when it is of another type or does not decode, `.absent` when missing.
  public func load() -> StoredValue<Value> {
    guard let object = defaults.object(forKey: key) else { return .absent }
    if isPropertyList {
      if let value = object as? Value { return .value(value) }
      return .unreadable(description: "a value of another type")
    }
    guard let data = object as? Data else {
      return .unreadable(description: "a value that is not JSON data")
    }
    do {
      return .value(try JSONDecoder().decode(Value.self, from: data))
    } catch {
      return .unreadable(description: "JSON data that does not decode (\(error))")
    }
  }

  /// Stores `value` under the key (a `nil` optional removes it); throws if it does not encode.
  public func save(_ value: Value) throws {
    if isPropertyList {
      if let optional = value as? any AbsentWhenNil, optional.isNil {
        defaults.removeObject(forKey: key)
      } else {
        defaults.set(value, forKey: key)
      }
    } else {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      defaults.set(try encoder.encode(value), forKey: key)
    }
  }

  /// Equal values (compared with `==` when `Value` is `Equatable`, by their JSON otherwise).
  public func isSameContent(_ a: StoredValue<Value>, _ b: StoredValue<Value>) -> Bool {
    switch (a, b) {
    case let (.value(x), .value(y)): Self.isSame(x, y)
    case (.absent, .absent): true
    case let (.unreadable(x), .unreadable(y)): x == y
    default: false
    }
  }

  private static func isSame(_ a: Value, _ b: Value) -> Bool {
    func equal<E: Equatable>(_ a: E, _ b: Any) -> Bool { a == b as? E }
    if let a = a as? any Equatable { return equal(a, b) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return (try? encoder.encode(a)) == (try? encoder.encode(b))
  }

  /// Reports `UserDefaults.didChangeNotification` from any `UserDefaults` object (two
  /// objects may share a suite), on the posting thread.
  public func observeChanges(_ onChange: @escaping @Sendable () -> Void) -> any Disposable {
    let token = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: nil, queue: nil
    ) { _ in onChange() }
    let observer = UncheckedToken(token)
    return ActionDisposable { NotificationCenter.default.removeObserver(observer.token) }
  }
}

/// The observer token NotificationCenter returns: an opaque object it only compares.
private struct UncheckedToken: @unchecked Sendable {
  // Immutable, and NotificationCenter uses it only to find the observer to remove.
  let token: any NSObjectProtocol
  init(_ token: any NSObjectProtocol) { self.token = token }
}

extension PropertyStorage {
  /// Keeps the value in `defaults` under `key`: property-list values as themselves, any
  /// other `Codable` value as JSON `Data`. See ``UserDefaultsStorage``.
  ///
  /// ```swift
  /// @Property(storage: .userDefaults("launchCount")) var launchCount = 0
  /// ```
  public static func userDefaults<V>(_ key: String, in defaults: UserDefaults = .standard) -> Self
  where Self == UserDefaultsStorage<V> {
    UserDefaultsStorage(key, in: defaults)
  }
}

/// The types `UserDefaults` stores as themselves: `Bool`, `Int`, `Double`, `Float`, `String`, `Data`, `Date`, and arrays, `String`-keyed dictionaries and optionals of
/// them. Every other `Codable` value is stored as JSON.
protocol PropertyListValue: Codable {}

extension Bool: PropertyListValue {}
extension Int: PropertyListValue {}
extension Double: PropertyListValue {}
extension Float: PropertyListValue {}
extension String: PropertyListValue {}
extension Data: PropertyListValue {}
extension Date: PropertyListValue {}
extension Array: PropertyListValue where Element: PropertyListValue {}
extension Dictionary: PropertyListValue where Key == String, Value: PropertyListValue {}
extension Optional: PropertyListValue where Wrapped: PropertyListValue {}

/// An optional, which a store keeps as "nothing stored" when it is nil.
private protocol AbsentWhenNil { var isNil: Bool { get } }
extension Optional: AbsentWhenNil {
  var isNil: Bool { self == nil }
}
