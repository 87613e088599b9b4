extension Property {
  /// Calls `block` with the new and the old value each time the property is set, for as
  /// long as `observer` is alive.
  ///
  /// The spelling of the classic `Observable<T>` blog post. Unlike ``observe(_:)`` it does
  /// not replay the current value. `observer` is held weakly: nothing is delivered once it
  /// has deallocated, and its registration is removed at the next set. `observer` is kept
  /// alive for the duration of each call to `block`.
  ///
  /// - Returns: A disposable that ends this registration early; ``unsubscribe(_:)`` ends
  ///   all registrations of `observer` at once.
  @discardableResult
  public func subscribe(
    _ observer: AnyObject,
    block: @escaping @Sendable (_ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    let reference = WeakReference(observer)
    let key = ObjectIdentifier(observer)
    let mailbox = SubscriberMailbox<(newValue: T, oldValue: T)>()
    let (id, _) = storage.add(
      { [storage] registration in
        { update in
          guard let observer = reference.object else {
            storage.remove(registration) { $0.forget(registration, of: key) }
            return
          }
          withExtendedLifetime(observer) {
            mailbox.deliver((update.value, update.oldValue), version: update.version) { change in
              block(change.newValue, change.oldValue)
            }
          }
        }
      },
      reading: { state, id in state.subscriptions[key, default: []].append(id) }
    )
    return ObserverSubscription(storage: storage, id: id, observer: key)
  }

  /// Ends every registration that `observer` made with ``subscribe(_:block:)``.
  ///
  /// Unsubscribing an object that never subscribed does nothing.
  public func unsubscribe(_ observer: AnyObject) {
    let key = ObjectIdentifier(observer)
    let ids = storage.withLock { $0.state.subscriptions.removeValue(forKey: key) ?? [] }
    for id in ids { storage.remove(id) }
  }
}

/// The token of one `subscribe(_:block:)` registration; ending it also forgets it in the
/// property's observer index.
private final class ObserverSubscription<T>: Disposable, DeferredReleaseDisposable {
  private let storage: ObserverStorage<PropertyUpdate<T>, PropertyState<T>>
  private let id: UInt64
  private let observer: ObjectIdentifier

  init(storage: ObserverStorage<PropertyUpdate<T>, PropertyState<T>>, id: UInt64, observer: ObjectIdentifier) {
    self.storage = storage
    self.id = id
    self.observer = observer
  }

  func dispose() { _ = stop() }

  var isDisposed: Bool { !storage.contains(id) }

  func stop() -> Any? {
    storage.remove(id) { [id, observer] in $0.forget(id, of: observer) }
  }
}
