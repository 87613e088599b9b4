import Foundation
import Testing
import TestSupport

@testable import ObservableKit

#if canImport(Observation)
import Observation
#endif

/// A private `UserDefaults` suite, removed when the test ends.
final class TestDefaults: @unchecked Sendable {
  // UserDefaults is thread-safe; the name is immutable.
  let name = "okit.test.\(UInt64.random(in: 0...UInt64.max))"
  let defaults: UserDefaults
  init() { defaults = UserDefaults(suiteName: name)! }
  deinit { defaults.removePersistentDomain(forName: name) }
}

enum Theme: String, Codable, Sendable { case system, light, dark }

struct Layout: Codable, Equatable, Sendable {
  var columns: Int
  var title: String
}

private final class Settings: PropertyModel {
  @Property(storage: .userDefaults("launchCount")) var launchCount = 0
  @Property var theme: Theme
  init(defaults: UserDefaults) {
    _theme = Property(wrappedValue: .system, storage: .userDefaults("theme", in: defaults))
  }
}

/// Collects the persistence diagnostics that name `key`.
private func diagnostics(naming key: String, _ body: () -> Void) -> [String] {
  let said = Guarded<[String]>([])
  PersistenceDiagnostics.withDiagnostics(sentTo: { message in
    if message.contains("\"\(key)\"") { said.withLock { $0.append(message) } }
  }, body)
  return said.value
}

@Suite("Persisted properties")
struct PersistedPropertyTests {
  @Test("Start: the stored value when it decodes, else the default")
  func start() {
    let store = TestDefaults()
    #expect(Property(0.5, storage: .userDefaults("volume", in: store.defaults)).value == 0.5)
    store.defaults.set(0.8, forKey: "volume")
    #expect(Property(0.5, storage: .userDefaults("volume", in: store.defaults)).value == 0.8)
    store.defaults.set(try! JSONEncoder().encode(Theme.dark), forKey: "theme")
    #expect(Property(Theme.system, storage: .userDefaults("theme", in: store.defaults)).value == .dark)
    store.defaults.set(["a", "b"], forKey: "tags")
    #expect(SharedProperty(["x"], storage: .userDefaults("tags", in: store.defaults)).value == ["a", "b"])
  }

  @Test("The spellings: @Property(storage:) on a model, with the standard suite's default argument")
  func spellings() {
    let store = TestDefaults()
    let settings = Settings(defaults: store.defaults)
    settings.theme = .dark
    #expect(Property(Theme.system, storage: .userDefaults("theme", in: store.defaults)).value == .dark)
    let count = settings.launchCount
    settings.launchCount += 1
    #expect(UserDefaults.standard.integer(forKey: "launchCount") == count + 1)
    UserDefaults.standard.removeObject(forKey: "launchCount")
  }

  @Test("Writes: property-list values as themselves, other Codable values as JSON data")
  func writeThrough() throws {
    let store = TestDefaults()
    let count = Property(0, storage: .userDefaults("count", in: store.defaults))
    let layout = Property(Layout(columns: 2, title: "t"), storage: .userDefaults("layout", in: store.defaults))
    let written = Guarded<[Int]>([])
    count.observeChanges { _ in written.withLock { $0.append(store.defaults.integer(forKey: "count")) } }.dispose(after: {
      count.value = 3
    })
    // The store held the value before the handler ran.
    #expect(written.value == [3])
    #expect(store.defaults.integer(forKey: "count") == 3)
    layout.value.columns = 4
    let data = try #require(store.defaults.data(forKey: "layout"))
    #expect(try JSONDecoder().decode(Layout.self, from: data) == Layout(columns: 4, title: "t"))
    let optional = Property(String?.none, storage: .userDefaults("name", in: store.defaults))
    optional.value = "n"
    #expect(store.defaults.string(forKey: "name") == "n")
    optional.value = nil
    #expect(store.defaults.object(forKey: "name") == nil)
  }

  @Test("modify writes once")
  func modifyWritesOnce() {
    let store = TestDefaults()
    let storage = CountingStorage(UserDefaultsStorage<Int>("count", in: store.defaults))
    let count = Property(0, storage: storage)
    count.modify { $0 += 1; $0 += 1 }
    #expect(storage.saves.value == 1)
    #expect(store.defaults.integer(forKey: "count") == 2)
  }

  @Test("Bad stored data: the default, a diagnostic naming key and type, the data untouched until the first set")
  func badData() {
    let store = TestDefaults()
    store.defaults.set("not a number", forKey: "bad")
    store.defaults.set(Data("{".utf8), forKey: "badLayout")
    var count: Property<Int>!
    var layout: Property<Layout>!
    let said = diagnostics(naming: "bad") { count = Property(7, storage: .userDefaults("bad", in: store.defaults)) }
    let saidLayout = diagnostics(naming: "badLayout") {
      layout = Property(Layout(columns: 1, title: ""), storage: .userDefaults("badLayout", in: store.defaults))
    }
    #expect(count.value == 7)
    #expect(layout.value == Layout(columns: 1, title: ""))
    #if DEBUG
    #expect(said.count == 1 && said[0].contains("Int"))
    #expect(saidLayout.count == 1 && saidLayout[0].contains("Layout"))
    #endif
    #expect(store.defaults.string(forKey: "bad") == "not a number")
    #expect(store.defaults.data(forKey: "badLayout") == Data("{".utf8))
    count.value = 8
    #expect(store.defaults.integer(forKey: "bad") == 8)
  }

  @Test("Another Property on the same key and store: one ordinary set, exactly once, no echo, no loop")
  func sibling() {
    let store = TestDefaults()
    let a = Property(0, storage: .userDefaults("k", in: store.defaults))
    let b = Property(0, storage: .userDefaults("k", in: store.defaults))
    let heardA = Guarded<[Int]>([]), heardB = Guarded<[Int]>([])
    let subscriptions = [
      a.observeChanges { v in heardA.withLock { $0.append(v) } },
      b.observeChanges { v in heardB.withLock { $0.append(v) } },
    ]
    a.value = 1
    #expect(b.value == 1)
    b.value = 2
    #expect(a.value == 2)
    // A reported change after the fact (Apple's notification, or a reload) adds nothing.
    a.reloadFromStorage()
    b.reloadFromStorage()
    #expect(heardA.value == [1, 2])
    #expect(heardB.value == [1, 2])
    subscriptions.forEach { $0.dispose() }
  }

  @Test("A direct write, then a reload (Linux) or the platform's notification: one set; removal means the default")
  func directWrite() {
    let store = TestDefaults()
    let volume = Property(0.5, storage: .userDefaults("volume", in: store.defaults))
    let heard = Guarded<[Double]>([])
    let subscription = volume.observeChanges { v in heard.withLock { $0.append(v) } }
    store.defaults.set(0.9, forKey: "volume")
    volume.reloadFromStorage()
    volume.reloadFromStorage()
    #expect(volume.value == 0.9)
    store.defaults.removeObject(forKey: "volume")
    volume.reloadFromStorage()
    #expect(volume.value == 0.5)
    #expect(heard.value == [0.9, 0.5])
    // The platform's notification for a persistent-domain write (posted on Linux too).
    store.defaults.setPersistentDomain(["volume": 0.25], forName: store.name)
    #expect(volume.value == 0.25)
    #expect(heard.value == [0.9, 0.5, 0.25])
    subscription.dispose()
  }

  @Test("A store written through on another thread reaches a SharedProperty on that thread, once")
  func sharedFromAnotherThread() {
    let store = TestDefaults()
    let a = SharedProperty([String](), storage: .userDefaults("tags", in: store.defaults))
    let b = SharedProperty([String](), storage: .userDefaults("tags", in: store.defaults))
    let heard = ValueLog<[String]>()
    let subscription = b.observeChangesNonisolated(heard.handler)
    withWatchdog("a set on another thread") { a.value = ["x"] }
    #expect(b.value == ["x"])
    #expect(heard.values == [["x"]])
    subscription.dispose()
  }

  @Test("Concurrent sets on two shared properties of one key end equal, and equal to the store")
  func concurrentShared() {
    let store = TestDefaults()
    let a = SharedProperty(0, storage: .userDefaults("n", in: store.defaults))
    let b = SharedProperty(0, storage: .userDefaults("n", in: store.defaults))
    race(threads: 4) { index in
      for i in 0..<200 { (index % 2 == 0 ? a : b).value = index * 1000 + i }
    }
    // The store's change reports are process-wide (`UserDefaults.didChangeNotification`
    // with no object), so another test's defaults can make a property busy with its store
    // on that test's thread; a reload then returns first and that thread applies it (see
    // `reloadFromStorage()`). Ask again until both hold what the store holds, within a bound.
    let stored = store.defaults.integer(forKey: "n")
    var tries = 0
    repeat {
      a.reloadFromStorage()
      b.reloadFromStorage()
      tries += 1
      if a.value == stored && b.value == stored { break }
      Thread.sleep(forTimeInterval: 0.001)
    } while tries < 5_000
    #expect(a.value == stored)
    #expect(b.value == stored)
  }

  @Test("A confined property made off the main thread leaves a change reported on another thread to reloadFromStorage()")
  func confinedOtherThread() {
    let store = TestDefaults()
    let a = SharedProperty(0, storage: .userDefaults("c", in: store.defaults))
    let confined = Property(0, storage: .userDefaults("c", in: store.defaults))
    guard !Thread.isMainThread else { return }
    let said = diagnostics(naming: "c") { withWatchdog("a write on another thread") { a.value = 5 } }
    #expect(confined.value == 0)
    #if DEBUG
    // At least once: a report of the same change that another test's defaults trigger (the
    // store's reports are process-wide) may say it again.
    #expect(!said.isEmpty, "\(said)")
    #endif
    confined.reloadFromStorage()
    #expect(confined.value == 5)
  }

  @Test("Together with the rest: propertyChanges, operators, Observation tracking")
  func together() {
    let store = TestDefaults()
    let settings = Settings(defaults: store.defaults)
    let names = Guarded<[String]>([])
    let changes = settings.propertyChanges.observe { name in names.withLock { $0.append(name) } }
    let mapped = Guarded<[String]>([])
    let map = settings.$theme.map(\.rawValue).observe { v in mapped.withLock { $0.append(v) } }
    let other = Property(Theme.system, storage: .userDefaults("theme", in: store.defaults))
    other.value = .light
    #expect(names.value == ["theme"])
    #expect(mapped.value == ["system", "light"])
    changes.dispose()
    map.dispose()
    #if canImport(Observation)
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
      let fired = Tally()
      withObservationTracking { _ = settings.theme } onChange: { fired.increment() }
      other.value = .dark
      #expect(fired.value == 1)
    }
    #endif
  }
}

/// A storage that counts its saves.
private final class CountingStorage<Value: Codable & Equatable>: PropertyStorage, @unchecked Sendable {
  // `saves` is a Guarded; `base` is immutable.
  let base: UserDefaultsStorage<Value>
  let saves = Guarded(0)
  init(_ base: UserDefaultsStorage<Value>) { self.base = base }
  var location: UserDefaultsStorage<Value>.Location { base.location }
  func load() -> StoredValue<Value> { base.load() }
  func save(_ value: Value) throws {
    saves.withLock { $0 += 1 }
    try base.save(value)
  }
}

extension Disposable {
  /// Runs `body`, then disposes this.
  func dispose(after body: () -> Void) {
    body()
    dispose()
  }
}

/// A store of one's own: an in-memory box that reports its changes, and can refuse to save.
private final class MemoryStorage: PropertyStorage, @unchecked Sendable {
  // `stored`, `listeners` and `failing` are Guarded.
  let stored = Guarded<Int?>(nil)
  let listeners = Guarded<[@Sendable () -> Void]>([])
  let failing = Guarded(false)
  struct Failure: Error {}
  var location: String { "memory box" }
  func load() -> StoredValue<Int> { stored.value.map { .value($0) } ?? .absent }
  func save(_ value: Int) throws {
    if failing.value { throw Failure() }
    stored.value = value
  }
  func observeChanges(_ onChange: @escaping @Sendable () -> Void) -> any Disposable {
    listeners.withLock { $0.append(onChange) }
    return DisposeBag()
  }
  /// A change made elsewhere, reported.
  func setElsewhere(_ value: Int?) {
    stored.value = value
    for listener in listeners.value { listener() }
  }
}

@Suite("Persisted properties: a store of one's own")
struct CustomStorageTests {
  @Test("A custom store: start, write-through, reported changes once, no echo; a refused save keeps the data")
  func customStore() {
    let storage = MemoryStorage()
    storage.stored.value = 4
    let property = Property(0, storage: storage)
    #expect(property.value == 4)
    let heard = Guarded<[Int]>([])
    let token = property.observeChanges { v in heard.withLock { $0.append(v) } }
    property.value = 5
    #expect(storage.stored.value == 5)
    storage.setElsewhere(9)
    storage.setElsewhere(9)
    storage.setElsewhere(nil)
    #expect(heard.value == [5, 9, 0])
    storage.failing.value = true
    let said = Guarded<[String]>([])
    PersistenceDiagnostics.withDiagnostics(sentTo: { m in if m.contains("memory box") { said.withLock { $0.append(m) } } }) {
      property.value = 6
    }
    #expect(storage.stored.value == nil)
    #expect(property.value == 6)
    #if DEBUG
    #expect(said.value.count == 1)
    #endif
    token.dispose()
  }
}
