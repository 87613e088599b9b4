extension Property: CustomDebugStringConvertible {
  /// The property's type, current value and live observer count, for example
  /// `Property<Int>(value: 5, observers: 1)`. Reading it does not register an Observation
  /// access.
  public var debugDescription: String {
    let current = storage.withLock { $0.state.value }
    return "Property<\(T.self)>(value: \(String(reflecting: current)), observers: \(observerCount))"
  }
}

extension DisposeBag: CustomDebugStringConvertible {
  /// The number of entries the bag holds, or that it is disposed, for example
  /// `DisposeBag(entries: 3)`.
  public var debugDescription: String {
    isDisposed ? "DisposeBag(disposed)" : "DisposeBag(entries: \(entryCount))"
  }
}
