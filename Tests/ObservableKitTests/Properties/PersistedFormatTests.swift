import Foundation
import Testing
import TestSupport

@testable import ObservableKit

enum Size: Int, Codable, Sendable { case small = 1, large = 2 }

/// A raw-value type that is no enum, as `@AppStorage` stores such a type.
struct Accent: RawRepresentable, Codable, Equatable, Sendable {
  var rawValue: String
}

/// A type whose `==` says every two values are equal: the stores must not trust it.
struct AlwaysEqual: Codable, Equatable, Sendable {
  var n: Int
  static func == (_: Self, _: Self) -> Bool { true }
}

/// Writes `value` exactly as the persistence of 565ac7d did for a type it kept as JSON: the
/// JSON `Data` of the value, keys sorted.
private func storeTheOldWay<V: Encodable>(_ value: V, _ key: String, in defaults: UserDefaults) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .sortedKeys
  defaults.set(try encoder.encode(value), forKey: key)
}

@Suite("Persisted properties: the stored format")
struct PersistedFormatTests {
  @Test("Stored as @AppStorage stores them: raw values, URL, property-list values, read by UserDefaults' own getters")
  func nativeFormat() {
    let store = TestDefaults()
    let d = store.defaults
    let theme = Property(Theme.system, storage: .userDefaults("theme", in: d))
    theme.value = .dark
    #expect(d.string(forKey: "theme") == "dark")
    let size = Property(Size.small, storage: .userDefaults("size", in: d))
    size.value = .large
    #expect(d.integer(forKey: "size") == 2)
    let accent = SharedProperty(Accent(rawValue: "red"), storage: .userDefaults("accent", in: d))
    accent.value = Accent(rawValue: "blue")
    #expect(d.string(forKey: "accent") == "blue")
    let web = URL(string: "https://example.com/a?b=1")!
    let link = Property(URL(string: "https://example.com")!, storage: .userDefaults("link", in: d))
    link.value = web
    #expect(d.url(forKey: "link") == web)
    let file = URL(fileURLWithPath: "/tmp/okit-file")
    let path = SharedProperty(file, storage: .userDefaults("path", in: d))
    path.value = URL(fileURLWithPath: "/tmp/okit-other")
    #expect(d.url(forKey: "path")?.path == "/tmp/okit-other")
    let ratio = Property(Float(1), storage: .userDefaults("ratio", in: d))
    ratio.value = 0.5
    #expect(d.float(forKey: "ratio") == 0.5)
    let when = Property(Date(timeIntervalSince1970: 0), storage: .userDefaults("when", in: d))
    when.value = Date(timeIntervalSince1970: 10)
    #expect(d.object(forKey: "when") as? Date == Date(timeIntervalSince1970: 10))
    let nested = Property([String: [[Int]]](), storage: .userDefaults("nested", in: d))
    nested.value = ["a": [[1, 2], [3]]]
    #expect(d.dictionary(forKey: "nested") as? [String: [[Int]]] == ["a": [[1, 2], [3]]])
    // Each reads back in a new property.
    #expect(Property(Theme.system, storage: .userDefaults("theme", in: d)).value == .dark)
    #expect(Property(Size.small, storage: .userDefaults("size", in: d)).value == .large)
    #expect(Property(URL(string: "https://x")!, storage: .userDefaults("link", in: d)).value == web)
    #expect(Property(Float(1), storage: .userDefaults("ratio", in: d)).value == 0.5)
    #expect(Property([String: [[Int]]](), storage: .userDefaults("nested", in: d)).value == ["a": [[1, 2], [3]]])
  }

  @Test("The @Property(storage:) spelling stores a raw value natively")
  func wrapperSpelling() {
    let store = TestDefaults()
    final class Model {
      @Property var theme: Theme
      init(_ d: UserDefaults) { _theme = Property(wrappedValue: .dark, storage: .userDefaults("theme", in: d)) }
    }
    let model = Model(store.defaults)
    model.theme = .light
    #expect(store.defaults.string(forKey: "theme") == "light")
  }

  @Test("An optional of a native type stores nil by removing the key")
  func optionals() {
    let store = TestDefaults()
    let d = store.defaults
    let theme = Property(Theme?.none, storage: .userDefaults("theme", in: d))
    theme.value = .light
    #expect(d.string(forKey: "theme") == "light")
    theme.value = nil
    #expect(d.object(forKey: "theme") == nil)
    let size = Property(Size?.none, storage: .userDefaults("size", in: d))
    size.value = .small
    #expect(d.integer(forKey: "size") == 1)
    let link = Property(URL?.none, storage: .userDefaults("link", in: d))
    link.value = URL(string: "https://example.com")
    #expect(d.url(forKey: "link") == URL(string: "https://example.com"))
    link.value = nil
    #expect(d.object(forKey: "link") == nil)
    let count = Property(Int?.none, storage: .userDefaults("count", in: d))
    count.value = 4
    #expect(d.integer(forKey: "count") == 4)
    count.value = nil
    #expect(d.object(forKey: "count") == nil)
  }

  @Test("A collection holding nil is JSON, never a crashing property list")
  func optionalsInCollectionsAreJSON() throws {
    let store = TestDefaults()
    let d = store.defaults
    let list = Property([Int?](), storage: .userDefaults("list", in: d))
    list.value = [1, nil, 3]
    let listData = try #require(d.data(forKey: "list"))
    #expect(try JSONDecoder().decode([Int?].self, from: listData) == [1, nil, 3])
    let map = SharedProperty([String: String?](), storage: .userDefaults("map", in: d))
    map.value = ["a": nil, "b": "x"]
    let mapData = try #require(d.data(forKey: "map"))
    #expect(try JSONDecoder().decode([String: String?].self, from: mapData) == ["a": nil, "b": "x"])
    let links = Property([URL](), storage: .userDefaults("links", in: d))
    links.value = [URL(string: "https://example.com")!]
    #expect(d.data(forKey: "links") != nil)
    #expect(Property([Int?](), storage: .userDefaults("list", in: d)).value == [1, nil, 3])
    #expect(Property([URL](), storage: .userDefaults("links", in: d)).value == [URL(string: "https://example.com")!])
  }

  @Test("A value stored as JSON by 565ac7d still loads, and is stored natively at the next set")
  func earlierJSONFormat() throws {
    let store = TestDefaults()
    let d = store.defaults
    try storeTheOldWay(Theme.dark, "theme", in: d)
    try storeTheOldWay(Size.large, "size", in: d)
    try storeTheOldWay(URL(string: "https://example.com/old")!, "link", in: d)
    try storeTheOldWay(Theme?.some(.light), "maybeTheme", in: d)
    let theme = Property(Theme.system, storage: .userDefaults("theme", in: d))
    let size = SharedProperty(Size.small, storage: .userDefaults("size", in: d))
    let link = Property(URL(string: "https://x")!, storage: .userDefaults("link", in: d))
    let maybe = Property(Theme?.none, storage: .userDefaults("maybeTheme", in: d))
    #expect(theme.value == .dark)
    #expect(size.value == .large)
    #expect(link.value == URL(string: "https://example.com/old")!)
    #expect(maybe.value == .light)
    theme.value = .light
    size.value = .small
    link.value = URL(string: "https://example.com/new")!
    maybe.value = .dark
    #expect(d.string(forKey: "theme") == "light")
    #expect(d.integer(forKey: "size") == 1)
    #expect(d.url(forKey: "link") == URL(string: "https://example.com/new")!)
    #expect(d.string(forKey: "maybeTheme") == "dark")
  }

  @Test("Two properties of different types on one key and store hear each other's sets; each decodes what it can")
  func differentTypesOnOneKey() {
    let store = TestDefaults()
    let number = Property(5, storage: .userDefaults("k", in: store.defaults))
    let text = Property("", storage: .userDefaults("k", in: store.defaults))
    let shared = SharedProperty("", storage: .userDefaults("k", in: store.defaults))
    let heard = Guarded<[Int]>([])
    let subscription = number.observeChanges { v in heard.withLock { $0.append(v) } }
    number.value = 7
    var said: [String] = []
    let sink = Guarded<[String]>([])
    PersistenceDiagnostics.withDiagnostics(sentTo: { m in if m.contains("\"k\"") { sink.withLock { $0.append(m) } } }) {
      text.value = "x"
    }
    said = sink.value
    // The Int cannot read "x": it takes its default, with the diagnostic.
    #expect(number.value == 5)
    #expect(heard.value == [7, 5])
    // The shared String twin hears it too, on the setting thread.
    #expect(shared.value == "x")
    #if DEBUG
    #expect(said.contains { $0.contains("Swift.Int") })
    #endif
    number.value = 9
    #expect(text.value == "")
    subscription.dispose()
  }

  @Test("UserDefaults storage compares stored content by its JSON, never by the type's ==: a change from elsewhere is applied")
  func comparesByContentNotEquatable() throws {
    let store = TestDefaults()
    let shared = SharedProperty(AlwaysEqual(n: 1), storage: .userDefaults("eq", in: store.defaults))
    shared.value = AlwaysEqual(n: 2)
    try storeTheOldWay(AlwaysEqual(n: 3), "eq", in: store.defaults)
    shared.reloadFromStorage()
    #expect(shared.value.n == 3)
  }
}
