#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// Ties a subscription to its owner's life where the platform lets us hear the owner die.
///
/// On Apple platforms the token rides on the owner as an associated object, so the
/// subscription is disposed, and its handler released, while the owner deallocates. Elsewhere
/// nothing can observe an arbitrary object's death: the subscription stops delivering and
/// counting the moment the owner is gone, and its handler is released at the source's next
/// notification or count. An owner that wants its handlers released during its own deinit on
/// every platform adds the tokens to a ``DisposeBag`` it owns.
@usableFromInline
enum OwnerLifetime {
  @usableFromInline
  static func bind(_ token: any Disposable, to owner: AnyObject) {
    #if canImport(ObjectiveC)
    let sentinel = DisposeOnDeinit(token)
    let key = UnsafeRawPointer(Unmanaged.passUnretained(sentinel).toOpaque())
    objc_setAssociatedObject(owner, key, sentinel, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    #endif
  }
}

#if canImport(ObjectiveC)
/// Disposes its token when the owner it is attached to releases it.
private final class DisposeOnDeinit {
  private let token: any Disposable

  init(_ token: any Disposable) {
    self.token = token
  }

  deinit {
    token.dispose()
  }
}
#endif
