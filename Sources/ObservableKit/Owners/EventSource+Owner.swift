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
    ExternalOwner.subscribe(owner) { external in
      let slot = DisposableSlot()
      slot.fill(observe { value in
        guard let owner = external.owner(endingIfGone: slot) else { return }
        handler(owner, value)
      })
      return slot
    }
  }
}
