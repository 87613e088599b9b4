// `SharedEvent`'s isolation-keeping subscription is a delivery built on its nonisolated one,
// as the family's is (`SharedEventSource+Delivery.swift`): it lives in Delivery/, so that
// Shared/ names no Delivery type.

extension SharedEvent {
  /// Registers `handler` for this event's values; the handler keeps the isolation of the
  /// code that calls this method. See ``SharedEventSource/observe(_:fileID:line:)`` and, for
  /// where and when each kind of handler runs, the type's discussion.
  ///
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  @inlinable
  public func observe(
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (T) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> any Disposable {
    // A main-actor handler on a plain event is a subscription of the event's own storage
    // (`MainActorSubscription`): one object, and the storage's token. A replaying or async-fed
    // event keeps the general route, which orders the replay before live values. A
    // nonisolated handler is told apart first: asking for the main actor costs a retain and
    // a release (check-thresholds.sh, S1s and S3s).
    let token: any Disposable
    if handler.isolation != nil, source == nil, event.replay == nil, let call = IsolationRetyping.mainActorCall(handler) {
      token = MainActorSubscription.observe(call, on: event.storage)
    } else {
      token = IsolatedDelivery.observe(handler) { observeNonisolated($0) }
    }
    return SubscriptionSites.named(token, fileID, line)
  }
}
