extension Property {
  /// Changes the value in place, atomically: `counter.modify { $0 += 1 }`.
  ///
  /// No set by another thread is lost between reading the value and writing it back. The
  /// closure runs with no lock held (so it may read this or any other property), on a copy
  /// of the current value; the copy is stored only if nobody set the property in the
  /// meantime. Otherwise the closure runs again on the newer value. Keep it free of side
  /// effects for that reason. The observers are notified once, as by a set.
  ///
  /// - Precondition: The closure does not set this property (it would never converge);
  ///   doing so stops with a message saying so.
  /// - Returns: What the closure returned on the run whose result was stored.
  @discardableResult
  public func modify<R>(_ body: (inout T) throws -> R) rethrows -> R {
    while true {
      let (current, version) = storage.withLock { header in (header.state.value, header.state.version) }
      var copy = current
      let result = try PassFrame.whileModifying(storage.identity) { try body(&copy) }
      let published = commit { state in
        state.version == version ? state.replace(with: copy) : nil
      }
      if let published {
        if let persistence { persistence.wrote(published.update) }
        withExtendedLifetime(self) {
          publish(published.update, from: published.snapshot, turnTaken: published.turnTaken)
        }
        return result
      }
    }
  }
}
