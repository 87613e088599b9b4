// Foundation is imported here, in Properties/Persistence/ only: `UserDefaults` and its change
// notification are Foundation's, and a persisted property must reach them (the core
// imports no Foundation otherwise; `.ci/run` checks both).
import Foundation

/// A value kept in `UserDefaults` under one key: what ``PropertyStorage/userDefaults(_:in:)-4task``
/// makes.
///
/// Values are stored as `@AppStorage` and `UserDefaults` store them, so
/// `defaults.string(forKey:)`, `integer(forKey:)`, `url(forKey:)`, a widget and `@AppStorage`
/// read the same value:
/// - `Bool`, `Int`, `Double`, `Float`, `String`, `Data`, `Date`, and arrays and
///   `String`-keyed dictionaries of them, as themselves;
/// - a `URL` through `set(_:forKey:)` for URLs (a file URL as its path; another URL as
///   archived data, which swift-corelibs-foundation's own `set(_:forKey:)` would cut to its
///   path, so there the archive is written directly);
/// - a `RawRepresentable` value whose raw value is `Int` or `String`, as its raw value (the
///   type must be known as such where the storage is made: in generic code that knows only
///   `Codable`, it is JSON);
/// - an optional of one of these: `nil` removes the key.
///
/// Any other `Codable` value (an optional inside a collection, a collection of URLs or of
/// raw values, a struct) is stored as JSON `Data`, keys sorted so that equal values store
/// equal data. A `URL` or a raw value stored as JSON `Data` (how earlier versions stored
/// them) still loads, and is stored natively at the next set.
///
/// Changes made in this process with `defaults.set(_:forKey:)` or
/// `removeObject(forKey:)` are reported where the platform posts
/// `UserDefaults.didChangeNotification` for them: Apple platforms do, on the writing thread;
/// swift-corelibs-foundation (Linux, Windows) posts it only for persistent-domain calls, so
/// there call ``Property/reloadFromStorage()`` after such a write. Writes through another
/// property on the same key and the same `UserDefaults` object reach the property on every
/// platform, whatever the two value types.
public struct UserDefaultsStorage<Value>: @unchecked Sendable {
  // `UserDefaults` is thread-safe (Apple documents it so, and swift-corelibs-foundation
  // guards its state with a lock) but not marked Sendable on every platform; the other
  // stored members are immutable values, and the format's closures capture nothing.
  private let defaults: UserDefaults
  private let key: String
  private let format: UserDefaultsFormat<Value>

  /// The key and the `UserDefaults` object: two properties on an equal location are kept
  /// in step, whatever their value types.
  public typealias Location = UserDefaultsLocation

  fileprivate init(_ key: String, _ defaults: UserDefaults, _ format: UserDefaultsFormat<Value>) {
    self.defaults = defaults
    self.key = key
    self.format = format
  }
}

extension UserDefaultsStorage where Value: Codable {
  /// Keeps values under `key` in `defaults`: property-list values, `URL` and optionals of
  /// them natively, any other `Codable` value as JSON.
  @_disfavoredOverload  // A raw-value type takes the overloads below.
  public init(_ key: String, in defaults: UserDefaults = .standard) {
    self.init(key, defaults, UserDefaultsFormat<Value>.classified())
  }

  /// Keeps the raw value of a `RawRepresentable` value under `key`, as `@AppStorage` does.
  public init(_ key: String, in defaults: UserDefaults = .standard)
  where Value: RawRepresentable, Value.RawValue == String {
    self.init(key, defaults, .rawValue)
  }

  /// Keeps the raw value of a `RawRepresentable` value under `key`, as `@AppStorage` does.
  public init(_ key: String, in defaults: UserDefaults = .standard)
  where Value: RawRepresentable, Value.RawValue == Int {
    self.init(key, defaults, .rawValue)
  }

  /// Keeps the raw value of an optional `RawRepresentable` value under `key`; `nil` removes it.
  public init<Wrapped: RawRepresentable & Codable>(_ key: String, in defaults: UserDefaults = .standard)
  where Value == Wrapped?, Wrapped.RawValue == String {
    self.init(key, defaults, UserDefaultsFormat<Wrapped>.rawValue.optional())
  }

  /// Keeps the raw value of an optional `RawRepresentable` value under `key`; `nil` removes it.
  public init<Wrapped: RawRepresentable & Codable>(_ key: String, in defaults: UserDefaults = .standard)
  where Value == Wrapped?, Wrapped.RawValue == Int {
    self.init(key, defaults, UserDefaultsFormat<Wrapped>.rawValue.optional())
  }

  fileprivate init(_ key: String, _ defaults: UserDefaults, _ format: UserDefaultsFormat<Value>) {
    self.defaults = defaults
    self.key = key
    self.format = format
  }

}

// Conditional, though every `Value` is `Codable`: so that an actor-isolated `Codable`
// conformance makes this conformance isolated too, which a `SharedProperty`, whose value
// type is `Sendable`, then cannot use (SE-0470) — it decodes on any thread.
extension UserDefaultsStorage: PropertyStorage where Value: Codable {
  /// The key and the `UserDefaults` object: properties on the same location share writes.
  public var location: Location { Location(key: key, store: ObjectIdentifier(defaults)) }

  /// The value under the key, natively or as JSON data as its type is stored (and, for a
  /// type stored natively now, as the JSON data of earlier versions); `.unreadable` when it
  /// is of another type or does not decode, `.absent` when missing.
  public func load() -> StoredValue<Value> {
    guard let object = defaults.object(forKey: key) else { return .absent }
    if let read = format.read {
      if format.readsEarlierJSON, let data = object as? Data,
        let value = try? JSONDecoder().decode(Value.self, from: data)
      {
        return .value(value)
      }
      if let value = read(object, defaults, key) { return .value(value) }
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
    if let write = format.write {
      try write(value, defaults, key)
    } else {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      defaults.set(try encoder.encode(value), forKey: key)
    }
  }

  /// Values whose JSON encodings are equal (keys sorted), whatever `Value`'s `Equatable`
  /// conformance says: the store compares what it would keep, and uses no conformance but
  /// `Codable`, the one its conformance to ``PropertyStorage`` depends on. A shared property
  /// calls this from any thread, so a conformance isolated to an actor must not be reached
  /// here: the compiler rejects an isolated `Codable` one (SE-0470), and a dynamic cast to
  /// `Equatable` would find an isolated one without a diagnostic.
  public func isSameContent(_ a: StoredValue<Value>, _ b: StoredValue<Value>) -> Bool {
    switch (a, b) {
    case let (.value(x), .value(y)): Self.isSame(x, y)
    case (.absent, .absent): true
    case let (.unreadable(x), .unreadable(y)): x == y
    default: false
    }
  }

  private static func isSame(_ a: Value, _ b: Value) -> Bool {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    // A value that does not encode is never the same: what cannot be compared is delivered.
    guard let x = try? encoder.encode(a), let y = try? encoder.encode(b) else { return false }
    return x == y
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

/// A key in one `UserDefaults` object, whatever the type of the value kept there: the
/// location of every ``UserDefaultsStorage``.
public struct UserDefaultsLocation: Hashable, Sendable, CustomStringConvertible {
  /// The key.
  public let key: String
  let store: ObjectIdentifier
  /// `UserDefaults key "name"`, for diagnostics.
  public var description: String { "UserDefaults key \"\(key)\"" }
}

/// How a ``UserDefaultsStorage`` keeps its type: natively (`read` and `write`), or as JSON
/// (both nil). Chosen once, where the storage is made: by the overload for `RawRepresentable`
/// types, and otherwise by `classified()`, which asks whether the type is one of the few
/// that `UserDefaults` stores itself (conformances of this module, or `URL`), as a static
/// choice cannot: `Optional` and the collections must ask of their elements, and a generic
/// `Codable` property reaches the storage with no more than `Codable` known.
struct UserDefaultsFormat<Value> {
  /// Reads a stored object natively; nil when it is not a `Value`.
  let read: ((Any, UserDefaults, String) -> Value?)?
  /// Stores a value natively.
  let write: ((Value, UserDefaults, String) throws -> Void)?
  /// Whether JSON `Data` also reads back (how earlier versions stored the type).
  let readsEarlierJSON: Bool

  static var json: Self { Self(read: nil, write: nil, readsEarlierJSON: false) }
}

extension UserDefaultsFormat where Value: Codable {
  /// The format of `Value`: a property-list type natively, `URL` as `UserDefaults` stores
  /// URLs, an optional of either with `nil` as no key, anything else as JSON.
  static func classified() -> Self {
    if Value.self is any PropertyListValue.Type {
      return Self(
        read: { object, _, _ in object as? Value },
        write: { value, defaults, key in defaults.set(value, forKey: key) },
        readsEarlierJSON: false)
    }
    if Value.self == URL.self {
      return Self(
        read: { _, defaults, key in defaults.url(forKey: key) as? Value },
        write: { value, defaults, key in try storeURL(value as! URL, defaults, key) },
        readsEarlierJSON: true)
    }
    if let optional = Value.self as? any NativeOptional.Type, let format = optional.nativeFormat() as? Self {
      return format
    }
    return .json
  }

}

extension UserDefaultsFormat where Value: RawRepresentable {
  /// The raw value, as `@AppStorage` stores a `RawRepresentable` value.
  static var rawValue: Self {
    Self(
      read: { object, _, _ in (object as? Value.RawValue).flatMap(Value.init(rawValue:)) },
      write: { value, defaults, key in defaults.set(value.rawValue, forKey: key) },
      readsEarlierJSON: true)
  }
}

extension UserDefaultsFormat {
  /// The format of `Value?`: this one, with `nil` as no key.
  func optional() -> UserDefaultsFormat<Value?> {
    guard let read, let write else { return .json }
    return UserDefaultsFormat<Value?>(
      read: { object, defaults, key in read(object, defaults, key).map { $0 } },
      write: { value, defaults, key in
        if let value { try write(value, defaults, key) } else { defaults.removeObject(forKey: key) }
      },
      readsEarlierJSON: readsEarlierJSON)
  }
}

/// Stores `url` as `UserDefaults.set(_:forKey:)` for URLs does on Apple platforms, so that
/// `url(forKey:)` reads it back on each platform.
private func storeURL(_ url: URL, _ defaults: UserDefaults, _ key: String) throws {
  #if canImport(Darwin)
  defaults.set(url, forKey: key)
  #else
  // swift-corelibs-foundation's `set(_:forKey:)` for URLs keeps only the path, which loses
  // any URL but a file URL; its `url(forKey:)` reads a path or an archived URL, as Apple's
  // does, so write those two forms here.
  if url.isFileURL {
    defaults.set(url, forKey: key)
  } else {
    defaults.set(try NSKeyedArchiver.archivedData(withRootObject: url as NSURL, requiringSecureCoding: true), forKey: key)
  }
  #endif
}

/// An optional whose wrapped type `UserDefaults` stores natively.
private protocol NativeOptional { static func nativeFormat() -> Any? }
extension Optional: NativeOptional where Wrapped: Codable {
  static func nativeFormat() -> Any? {
    let wrapped = UserDefaultsFormat<Wrapped>.classified()
    // An optional of an optional, or of a JSON type, stays JSON: one key cannot tell
    // `.some(nil)` from `nil`, and earlier versions stored optionals of JSON types as JSON.
    guard wrapped.read != nil, !(Wrapped.self is any NativeOptional.Type) else { return nil }
    return wrapped.optional()
  }
}

/// The observer token NotificationCenter returns: an opaque object it only compares.
private struct UncheckedToken: @unchecked Sendable {
  // Immutable, and NotificationCenter uses it only to find the observer to remove.
  let token: any NSObjectProtocol
  init(_ token: any NSObjectProtocol) { self.token = token }
}

extension PropertyStorage {
  /// Keeps the value in `defaults` under `key` as `@AppStorage` stores it (property-list
  /// values, `URL`, raw values), any other `Codable` value as JSON `Data`. See
  /// ``UserDefaultsStorage``.
  ///
  /// ```swift
  /// @Property(storage: .userDefaults("launchCount")) var launchCount = 0
  /// ```
  ///
  /// A raw-value type, and an optional of one, takes the overloads that store its raw value:
  /// this one is disfavoured for them.
  @_disfavoredOverload
  public static func userDefaults<V>(_ key: String, in defaults: UserDefaults = .standard) -> Self
  where Self == UserDefaultsStorage<V> {
    UserDefaultsStorage(key, in: defaults)
  }

  /// Keeps the raw value in `defaults` under `key`, as `@AppStorage` does.
  ///
  /// ```swift
  /// @Property(storage: .userDefaults("theme")) var theme = Theme.dark
  /// ```
  public static func userDefaults<V: RawRepresentable>(_ key: String, in defaults: UserDefaults = .standard) -> Self
  where Self == UserDefaultsStorage<V>, V.RawValue == String {
    UserDefaultsStorage<V>(key, defaults, .rawValue)
  }

  /// Keeps the raw value in `defaults` under `key`, as `@AppStorage` does.
  public static func userDefaults<V: RawRepresentable>(_ key: String, in defaults: UserDefaults = .standard) -> Self
  where Self == UserDefaultsStorage<V>, V.RawValue == Int {
    UserDefaultsStorage<V>(key, defaults, .rawValue)
  }

  /// Keeps the raw value in `defaults` under `key`, as `@AppStorage` does; `nil` removes it.
  public static func userDefaults<V: RawRepresentable & Codable>(_ key: String, in defaults: UserDefaults = .standard) -> Self
  where Self == UserDefaultsStorage<V?>, V.RawValue == String {
    UserDefaultsStorage<V?>(key, defaults, UserDefaultsFormat<V>.rawValue.optional())
  }

  /// Keeps the raw value in `defaults` under `key`, as `@AppStorage` does; `nil` removes it.
  public static func userDefaults<V: RawRepresentable & Codable>(_ key: String, in defaults: UserDefaults = .standard) -> Self
  where Self == UserDefaultsStorage<V?>, V.RawValue == Int {
    UserDefaultsStorage<V?>(key, defaults, UserDefaultsFormat<V>.rawValue.optional())
  }
}

/// The types `UserDefaults` stores as themselves: `Bool`, `Int`, `Double`, `Float`, `String`,
/// `Data`, `Date`, and arrays and `String`-keyed dictionaries of them. Not `Optional`: a
/// collection holding `nil` is no property list (`UserDefaults.set` raises on Apple
/// platforms and stops the process on Linux), so it is JSON; not `URL`: inside a collection
/// it is no property list either.
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
