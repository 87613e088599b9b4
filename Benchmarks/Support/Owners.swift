// Owner-bound observation and the bag over many sources: the owner type, the owner-bound
// handler every contender runs, and the `[weak owner]` closure the baseline and OpenCombine
// register in its place.

/// The owner of an owner-bound subscription: a class with no state, `Sendable` so that the
/// shared family's owner form takes it too.
public final class BenchOwner: Sendable {
  public init() {}
}

/// The owner-bound handler every contender runs: it adds the value to the sink. Not inlined,
/// so that each call makes a fresh closure context, as `makeHandler` does.
@inline(never)
public func makeOwnerHandler(_ sink: Sink) -> @Sendable (BenchOwner, Int) -> Void {
  { _, value in sink.slot.pointee &+= value }
}

/// What a closure array (and OpenCombine's `sink`) registers for an owner-bound handler: a
/// closure that holds the owner weakly and passes it in while it lives. Not inlined, for the
/// same reason as `makeOwnerHandler`.
@inline(never)
public func makeWeakOwnerHandler(
  _ owner: BenchOwner, _ handler: @escaping @Sendable (BenchOwner, Int) -> Void
) -> @Sendable (Int) -> Void {
  { [weak owner] value in
    guard let owner else { return }
    handler(owner, value)
  }
}
