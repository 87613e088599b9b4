/// What one `withObservers` or `withKeyedObservers` pass hands to every registration it
/// reaches: which registrations should answer, and where to put the observer.
///
/// A registration that answers stores its observer, loaded strongly, in `found`; the pass
/// takes it from there, casts it to the protocol it visits and calls the user's closure.
/// The cast and the call happen in the pass, which is inlined into the caller, so they are
/// specialized for the caller's protocol and nothing is allocated per pass.
@usableFromInline
struct ObserverVisit {
  /// Which registrations act on the visit.
  @usableFromInline
  enum Kind: Sendable {
    /// A `withObservers` pass: answered by each observer's one plain registration.
    case plain
    /// A `withKeyedObservers` pass: answered by the (key, observer) registrations it selects.
    case keyed
  }

  @usableFromInline let kind: Kind
  /// The pass's slot, on its stack: valid only during the handler call it is passed to.
  @usableFromInline let found: UnsafeMutablePointer<AnyObject?>

  @inlinable
  init(kind: Kind, found: UnsafeMutablePointer<AnyObject?>) {
    self.kind = kind
    self.found = found
  }
}
