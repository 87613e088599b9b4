// Foundation is imported here, in Persistence/ only, for the thread a confined property is
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
    let persistence = StoredPropertyPersistence(
      storage: storage, defaultValue: defaultValue,
      delivery: .confined(thread: ObjectIdentifier(Thread.current), isMain: Thread.isMainThread)
    )
    self.init(persistence.startValue, observationTracking: observationTracking, persistence: persistence)
    persistence.attach(to: self)
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

extension SharedProperty {
  /// Creates a shared property kept in `storage`, as ``Property/init(_:storage:observationTracking:)``
  /// does. A change reported by the store is applied at once, on the reporting thread.
  ///
  /// ```swift
  /// let tags = SharedProperty(["a"], storage: .userDefaults("tags"))
  /// ```
  public convenience init<Storage: PropertyStorage<T>>(
    _ defaultValue: T, storage: Storage, observationTracking: Bool = true
  ) {
    let persistence = StoredPropertyPersistence(storage: storage, defaultValue: defaultValue, delivery: .anyThread)
    let property = Property(persistence.startValue, observationTracking: observationTracking, persistence: persistence)
    persistence.attach(to: property)
    self.init(property: property)
  }

  /// Reads the store again and applies a change as one set; see
  /// ``Property/reloadFromStorage()``. Call it from any thread; if the property is busy
  /// with its store on another thread, that thread applies it, and this call returns first.
  public func reloadFromStorage() {
    property.reloadFromStorage()
  }
}
