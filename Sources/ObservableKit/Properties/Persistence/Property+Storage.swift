// Foundation is imported here, in Properties/Persistence/ only, for the thread a confined property is
// made on (`Thread`).
import Foundation

extension Property {
  /// Creates a property kept in `storage`: it starts with the stored value when there is one
  /// that reads back, and `defaultValue` otherwise; every set writes through before it
  /// returns.
  ///
  /// ```swift
  /// let volume = Property(0.5, storage: .userDefaults("volume"))
  /// ```
  ///
  /// See the Persisted and Bound State article for what reaches the property from
  /// elsewhere, and where: a change reported by the store is applied at once when it is
  /// reported on the thread that made the property; on another thread, for a property made
  /// on the main thread, on the main queue; otherwise at the next ``reloadFromStorage()``.
  ///
  /// - Parameters:
  ///   - defaultValue: The value when nothing readable is stored, and after the stored value
  ///     is removed.
  ///   - storage: Where the value is kept.
  ///   - observationTracking: See ``init(_:observationTracking:)``.
  public convenience init<Storage: PropertyStorage<T>>(
    _ defaultValue: T, storage: Storage, observationTracking: Bool = true
  ) {
    self.init(defaultValue, confinedStorage: storage, observationTracking: observationTracking)
  }

  /// Creates the property behind `@Property(storage: …) var name = defaultValue`.
  ///
  /// ```swift
  /// final class Settings {
  ///   @Property(storage: .userDefaults("launchCount")) var launchCount = 0
  /// }
  /// ```
  public convenience init<Storage: PropertyStorage<T>>(
    wrappedValue: T, storage: Storage, observationTracking: Bool = true
  ) {
    self.init(wrappedValue, storage: storage, observationTracking: observationTracking)
  }

  /// Reads the store again and applies a change as one ordinary set: what the store holds,
  /// or the default value if it holds nothing readable. Nothing happens if the store holds
  /// what the property last read or wrote, or if the property has no storage.
  ///
  /// Call it where the platform does not report a change: on Linux after
  /// `defaults.set(_:forKey:)` or `removeObject(forKey:)` (swift-corelibs-foundation posts no
  /// notification for them), or for a store whose ``PropertyStorage/observeChanges(_:)``
  /// reports nothing. Call it in the property's own isolation domain; its handlers run here,
  /// before it returns.
  public func reloadFromStorage() {
    persistence?.reload()
  }
}

// `UserDefaultsStorage<T>` is a `PropertyStorage` only through `T`'s `Codable` conformance
// (a conditional conformance), so an actor-isolated `Codable` conformance (a
// `@MainActor Codable`, or any conformance of a type in a module whose default isolation is
// the main actor) makes that conformance isolated too. The generic forms take a `Sendable`
// storage and a SharedProperty a `Sendable` value; an isolated conformance cannot satisfy a
// requirement on such a type (SE-0470, `SendableMetatype`), so a shared property of such a
// type does not compile: it would decode on whichever thread sets or reloads it. A confined
// `Property` takes the forms below, which ask `T` for no `Sendable`: it uses its storage
// where it lives (the thread that made it, the main queue for one made on the main thread),
// so a main-actor conformance is used on the main actor.
extension Property where T: Codable {
  /// Creates a property kept in `UserDefaults`; see ``init(_:storage:observationTracking:)``.
  /// `T`'s `Codable` conformance may be isolated to the actor the property lives on.
  public convenience init(_ defaultValue: T, storage: UserDefaultsStorage<T>, observationTracking: Bool = true) {
    self.init(defaultValue, confinedStorage: storage, observationTracking: observationTracking)
  }

  /// Creates the property behind `@Property(storage: .userDefaults("key")) var name = value`.
  public convenience init(wrappedValue: T, storage: UserDefaultsStorage<T>, observationTracking: Bool = true) {
    self.init(wrappedValue, confinedStorage: storage, observationTracking: observationTracking)
  }
}

extension Property {
  /// The one body of the confined persisted forms.
  fileprivate convenience init<Storage: PropertyStorage<T>>(
    _ defaultValue: T, confinedStorage storage: Storage, observationTracking: Bool
  ) {
    let persistence = StoredPropertyPersistence(
      storage: storage, defaultValue: defaultValue,
      delivery: .confined(thread: ObjectIdentifier(Thread.current), isMain: Thread.isMainThread)
    )
    self.init(persistence.startValue, observationTracking: observationTracking, persistence: persistence)
    persistence.attach(to: self)
  }
}
