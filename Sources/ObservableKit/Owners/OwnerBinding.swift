/// Owner-bound observation (`observe(with: owner) { owner, value in … }`), written once for
/// every form that registers through a source's public API: the owner is held weakly, so
/// the subscription keeps it alive only while a call runs; each call gets it strongly; the
/// first value that finds it gone ends the subscription, before the notification returns,
/// so it stops counting then; and ``bind(_:_:)`` lists the subscription with its owner
/// (``OwnerLifetime``), so that it ends once the owner is found gone, without any value.
///
/// The forms differ only in what carries a value to the handler: a synchronous call, a
/// delivery that keeps the caller's isolation, an actor's executor, an async runner; each
/// checks the owner where its call starts. A storage's own owner-bound subscription
/// (`ObservableEvent.observe(with:_:)`, the property's `register(owner:)`, behind
/// `subscribe(_:)`) stays apart: the storage knows the owner, so that `unsubscribe(_:)`
/// finds the subscription and a gone owner stops counting at once, before any value.
struct OwnerBinding<Owner: AnyObject>: Sendable {
  /// The owner, held weakly.
  let reference: WeakReference

  private init(_ owner: Owner) {
    reference = WeakReference(owner)
  }

  /// Makes an owner-bound subscription: `make` builds it from the owner held weakly and
  /// connects it to its source; the subscription is then bound to the owner's life. It must
  /// be an object the source keeps alive while it lasts (see ``OwnerLifetime/bind(_:to:)``).
  static func bind(
    _ owner: Owner,
    _ make: (OwnerBinding) -> any AnyObject & Disposable
  ) -> any Disposable {
    let binding = OwnerBinding(owner)
    let subscription = make(binding)
    OwnerLifetime.bind(subscription, to: binding.reference)
    return subscription
  }

  /// The owner held weakly, with nothing bound to its life: for a call behind a storage's
  /// own owner-bound subscription, where the storage keeps the owner's link itself.
  static func weak(_ owner: Owner) -> OwnerBinding {
    OwnerBinding(owner)
  }

  /// The owner, strongly, for the duration of one call; nil once its deinit has begun.
  var owner: Owner? {
    reference.object.map { unsafeDowncast($0, to: Owner.self) }
  }

  /// The owner, as ``owner``; once it has gone, ends `subscription` first. The handler a
  /// subscription puts on its source asks this for each value.
  func owner(endingIfGone subscription: some Disposable) -> Owner? {
    guard let owner else {
      subscription.dispose()
      return nil
    }
    return owner
  }
}
