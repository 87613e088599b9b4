// A shared property's owner-bound subscriptions deliver through the family's owner-bound
// routes (`IsolatedOwnerCall.delivery(owner:through:)`, in `SharedEventSource+Owner.swift`): they live in Owners/,
// so that Shared/ names no Owners type.

extension SharedProperty {
  /// Calls `block` with the new and the old value each time the property is set, for as
  /// long as `observer` is alive, passing the observer in. The block keeps the isolation of
  /// the caller, as for ``SharedEventSource/observe(_:fileID:line:)``; it does not hear the current
  /// value.
  ///
  /// - Returns: A disposable that ends this subscription early; ``unsubscribe(_:)`` ends all
  ///   subscriptions of `observer` at once.
  @discardableResult
  public func subscribe<Observer: AnyObject & Sendable>(
    _ observer: Observer,
    @_inheritActorContext block: @escaping @isolated(any) @Sendable (Observer, _ newValue: T, _ oldValue: T) -> Void
  ) -> any Disposable {
    let plain = OwnerBlockRetyping.plain(block)
    return register(owner: observer, replay: false, IsolatedOwnerCall(isolation: block.isolation) { observer, update in
      plain(observer, update.value, update.oldValue)
    })
  }

  /// Calls `handler` with the owner and the current value, then with every later value, for
  /// as long as `owner` is alive, passing the owner in, so the handler needs no
  /// `[weak self]`. The handler keeps the isolation of the caller, as for
  /// ``SharedEventSource/observe(_:fileID:line:)``.
  ///
  /// `owner` is held weakly, also while a value waits for the handler's actor, and passed
  /// to the handler strongly. Once its deinit has begun nothing is delivered, and the
  /// subscription no longer counts in ``observerCount``. ``unsubscribe(_:)`` ends it. You
  /// need not keep the returned disposable.
  @discardableResult
  public func observe<Owner: AnyObject & Sendable>(
    with owner: Owner,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Owner, T) -> Void
  ) -> any Disposable {
    let handler = IsolatedOwnerCall(handler)
    return register(owner: owner, replay: true, IsolatedOwnerCall(isolation: handler.isolation) { owner, update in
      handler.body(owner, update.value)
    })
  }

  /// The owner-bound subscription behind ``subscribe(_:block:)`` and ``observe(with:_:)``,
  /// delivered as `observe { }` delivers a handler of `call`'s isolation (see
  /// `IsolatedOwnerCall.delivery(owner:through:)`). The storage learns the owner, so ``unsubscribe(_:)`` and the
  /// count see it, and it checks the owner for each value and sweeps dead owners. A value
  /// waiting for the handler's actor holds the owner weakly: it is loaded when the call
  /// starts, so a released owner is not kept alive by what waits, and nothing is delivered
  /// once its deinit has begun.
  private func register<Owner: AnyObject & Sendable>(
    owner: Owner,
    replay: Bool,
    _ call: IsolatedOwnerCall<Owner, PropertyUpdate<T>>
  ) -> any Disposable {
    call.delivery(owner: WeakReference(owner)) { forward in
      property.register(owner: owner, replay: replay) { _, update in forward(update) }
    }
  }
}
