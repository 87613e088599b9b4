extension SharedProperty {
  /// Creates a shared property kept in `storage`, as ``Property/init(_:storage:observationTracking:)-(_,Storage,_)``
  /// does. A change reported by the store is applied at once, on the reporting thread.
  ///
  /// ```swift
  /// let tags = SharedProperty(["a"], storage: .userDefaults("tags"))
  /// ```
  public convenience init<Storage: PropertyStorage<T>>(
    _ defaultValue: T, storage: Storage, observationTracking: Bool = true
  ) {
    self.init(defaultValue, sharedStorage: storage, observationTracking: observationTracking)
  }

  /// Reads the store again and applies a change as one set; see
  /// ``Property/reloadFromStorage()``. Call it from any thread; if the property is busy
  /// with its store on another thread, that thread applies it, and this call returns first.
  public func reloadFromStorage() {
    property.reloadFromStorage()
  }
}

extension SharedProperty {
  /// The one body of the shared persisted forms.
  fileprivate convenience init<Storage: PropertyStorage<T>>(
    _ defaultValue: T, sharedStorage storage: Storage, observationTracking: Bool
  ) {
    let persistence = StoredPropertyPersistence(storage: storage, defaultValue: defaultValue, delivery: .anyThread)
    let property = Property(persistence.startValue, observationTracking: observationTracking, persistence: persistence)
    persistence.attach(to: property)
    self.init(property: property)
  }
}
