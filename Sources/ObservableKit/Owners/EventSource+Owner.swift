extension EventSource {
  /// Registers `handler` for as long as `owner` is alive, passing the owner in.
  ///
  /// The default for derived sources: once the owner has gone, the next value ends the
  /// upstream subscription instead of calling the handler.
  @discardableResult
  public func observe<Owner: AnyObject>(
    with owner: Owner,
    _ handler: @escaping (Owner, Value) -> Void
  ) -> any Disposable {
    let reference = WeakReference(owner)
    let slot = DisposableSlot()
    slot.fill(observe { value in
      guard let owner = reference.object else {
        slot.dispose()
        return
      }
      handler(unsafeDowncast(owner, to: Owner.self), value)
    })
    OwnerLifetime.bind(slot, to: owner)
    return slot
  }
}
