/// What one `withObservers` or `withKeyedObservers` pass hands to every registration it
/// reaches: the user's closure, wrapped so that it takes any object and filters by type.
///
/// The closure is the caller's non-escaping closure made escapable with
/// `withoutActuallyEscaping`, so a visit must never outlive the pass that made it.
struct ObserverVisit {
  /// Which registrations act on the visit.
  enum Kind {
    /// A `withObservers` pass: answered by each observer's one plain registration.
    case plain
    /// A `withKeyedObservers` pass: answered by the (key, observer) registrations it selects.
    case keyed
  }

  let kind: Kind
  let body: (AnyObject) -> Void
}
