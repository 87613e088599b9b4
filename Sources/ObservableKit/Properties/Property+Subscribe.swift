extension Property {
  /// Calls `block` with the new and the old value each time the property is set, for as
  /// long as `observer` is alive.
  ///
  /// The spelling of the classic `Observable<T>` blog post. Unlike ``observe(_:)`` it does
  /// not replay the current value. `observer` is held weakly and kept alive for the
  /// duration of each call; nothing is delivered once it has begun to deinitialize, and it
  /// stops counting in ``observerCount`` at once.
  ///
  /// - Returns: A disposable that ends this registration early; ``unsubscribe(_:)`` ends
  ///   all registrations of `observer` at once.
  @discardableResult
  public func subscribe(
    _ observer: AnyObject,
    block: @escaping @Sendable (_ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    register(owner: observer, replay: false) { _, update in
      block(update.value, update.oldValue)
    }
  }

  /// Ends every registration bound to `observer`: those made with
  /// ``subscribe(_:block:)`` and with ``observe(with:_:)``.
  ///
  /// Unsubscribing an object that never subscribed does nothing.
  public func unsubscribe(_ observer: AnyObject) {
    storage.removeAll(ownedBy: ObjectIdentifier(observer))
  }
}
