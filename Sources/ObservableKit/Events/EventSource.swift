/// Anything that can be observed: an event, a property, or a value derived from them.
///
/// ``ObservableEvent``, ``Property``, ``ReadOnlyEvent`` and ``ReadOnlyProperty`` conform.
/// The operators (``map(_:)``, ``filter(_:)``, ``take(_:)`` …), owner-bound observation,
/// queue and main-actor delivery and the ``values(bufferingPolicy:)`` async sequence are
/// defined once, here, for all of them.
///
/// Every source follows the library's <doc:Contracts>: handlers run synchronously on the
/// notifying thread (unless you ask for a queue), no lock is held while they run, and
/// disposing a subscription stops its handler.
public protocol EventSource<Value> {
  /// The type of value the source delivers.
  associatedtype Value

  /// Registers `handler` to be called with the source's values.
  ///
  /// - Returns: A disposable that ends this subscription.
  func observe(_ handler: @escaping (Value) -> Void) -> any Disposable

  /// Registers `handler` for as long as `owner` is alive, passing the owner in, so the
  /// handler needs no `[weak self]`.
  ///
  /// `owner` is held weakly and passed to the handler strongly; nothing is delivered once
  /// its deinit has begun. The subscription lives as long as the owner: you need not keep
  /// the returned disposable, though you may dispose it to end the subscription early. See
  /// <doc:Contracts> for when the handler itself is released on each platform.
  @discardableResult
  func observe<Owner: AnyObject>(
    with owner: Owner,
    _ handler: @escaping (Owner, Value) -> Void
  ) -> any Disposable
}
