extension Property {
  /// Calls `block` with the new and the old value each time the property is set, for as
  /// long as `observer` is alive.
  ///
  /// The spelling of the classic `Observable<T>` blog post. Unlike ``observe(_:)`` it does
  /// not replay the current value. `observer` is held weakly and kept alive for the
  /// duration of each call; nothing is delivered once it has begun to deinitialize, and it
  /// stops counting in ``observerCount`` at once.
  ///
  /// - Returns: A disposable that ends this subscription early; ``unsubscribe(_:)`` ends
  ///   all subscriptions of `observer` at once.
  @discardableResult
  public func subscribe(
    _ observer: AnyObject,
    block: @escaping (_ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    register(owner: observer, replay: false) { _, update in
      block(update.value, update.oldValue)
    }
  }

  /// Calls `block` with `observer`, the new and the old value each time the property is set,
  /// for as long as `observer` is alive, so the block needs no `[weak self]`.
  ///
  /// ```swift
  /// score.subscribe(self) { scoreboard, newValue, oldValue in
  ///   scoreboard.lines.append("\(oldValue) → \(newValue)")
  /// }
  /// ```
  ///
  /// The same as ``subscribe(_:block:)-(AnyObject,_)`` otherwise: no replay, `observer`
  /// held weakly and passed strongly, nothing delivered once its deinit has begun.
  @discardableResult
  public func subscribe<Observer: AnyObject>(
    _ observer: Observer,
    block: @escaping (Observer, _ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    // The storage's own owner subscription, not `ExternalOwner`: `unsubscribe(_:)` and the
    // count need the storage to know the owner. register() passes the owner it found alive.
    return register(owner: observer, replay: false) { owner, update in
      block(unsafeDowncast(owner!, to: Observer.self), update.value, update.oldValue)
    }
  }

  /// Ends every subscription bound to `observer`: those made with
  /// ``subscribe(_:block:)-(AnyObject,_)`` and with ``observe(with:_:)``.
  ///
  /// Unsubscribing an object that never subscribed does nothing.
  public func unsubscribe(_ observer: AnyObject) {
    storage.removeAll(ownedBy: observer)
  }
}
