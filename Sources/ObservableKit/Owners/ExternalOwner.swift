import ObservableKitShims

/// Owner-bound observation (`observe(with: owner) { owner, value in … }`), written once for
/// every form that registers through a source's public API: the owner is held weakly, so
/// the subscription keeps it alive only while a call runs; each call gets it strongly; the
/// first value that finds it gone ends the subscription, before the notification returns,
/// so it stops counting then; and ``subscribe(_:_:)`` lists the subscription with its owner
/// (``OwnerLifetime``), so that it ends once the owner is found gone, without any value.
///
/// The forms differ only in what carries a value to the handler: a synchronous call, a
/// delivery that keeps the caller's isolation, an actor's executor, an async runner; each
/// checks the owner where its call starts. A storage's own owner-bound subscription
/// (`ObservableEvent.observe(with:_:)`, the property's `register(owner:)`, behind
/// `subscribe(_:)`) stays apart: the storage knows the owner, so that `unsubscribe(_:)`
/// finds the subscription and a gone owner stops counting at once, before any value.
struct ExternalOwner<Owner: AnyObject>: Sendable {
  /// The owner, held weakly.
  let reference: WeakReference

  private init(_ owner: Owner) {
    reference = WeakReference(owner)
  }

  /// Makes an owner-bound subscription: `make` builds it from the owner held weakly and
  /// connects it to its source; the subscription is then tied to the owner's life. It must
  /// be an object the source keeps alive while it lasts (see ``OwnerLifetime/tie(_:to:)``).
  static func subscribe(
    _ owner: Owner,
    _ make: (ExternalOwner) -> any AnyObject & Disposable
  ) -> any Disposable {
    let external = ExternalOwner(owner)
    // A source whose observer count starts and stops work (an event fed by an async
    // sequence) reads the owner from this frame while `make` subscribes to it, and sweeps it
    // while that work runs (see `ExternalOwnerFrame`).
    let subscription = ExternalOwnerFrame.whileSubscribing(external.reference) { make(external) }
    OwnerLifetime.tie(subscription, to: external.reference)
    return subscription
  }

  /// The owner held weakly, with nothing tied to its life: for a call behind a storage's
  /// own owner-bound subscription, where the storage keeps the owner's link itself.
  static func weak(_ owner: Owner) -> ExternalOwner {
    ExternalOwner(owner)
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

/// The owners of the owner-bound subscriptions being made on this thread: a thread-local
/// frame (a `PassFrame` marked with ``marker``, pointing at the owner) that
/// ``ExternalOwner/subscribe(_:_:)`` pushes while it subscribes, so that a source the subscription
/// reaches, directly or through an operator chain, learns the owner it serves without any
/// record of the owner. Only a source whose observer count starts or stops work asks
/// (`AsyncEventSource`): nothing announces an owner's death, so it checks the owners it
/// learned while that work runs.
///
/// Only the frames on top of the thread's stack count, up to the first other frame: a
/// handler run during the subscription (a replay) runs inside its source's pass frame, so a
/// subscription that handler makes is not taken for one of the outer owner.
enum ExternalOwnerFrame {
  private final class Marker: Sendable {}
  private static let marker = Marker()

  /// Runs `body` with `owner` as the innermost owner being bound on this thread. One
  /// thread-local store and one restore per owner-bound subscription of the API route.
  static func whileSubscribing<R>(_ owner: WeakReference, _ body: () -> R) -> R {
    var owner = owner
    return withUnsafeMutablePointer(to: &owner) { pointer in
      PassFrame.withFrame(owner: ObjectIdentifier(marker), queue: UnsafeMutableRawPointer(pointer), body)
    }
  }

  /// The owners subscribing on this thread, innermost first; empty outside such a subscription.
  static var currentOwners: [WeakReference] {
    var owners: [WeakReference] = []
    let id = ObjectIdentifier(marker)
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: PassFrame.self)
      guard frame.pointee.owner == id, let pointer = frame.pointee.queue else { break }
      owners.append(pointer.assumingMemoryBound(to: WeakReference.self).pointee)
      cursor = frame.pointee.previous
    }
    return owners
  }
}
