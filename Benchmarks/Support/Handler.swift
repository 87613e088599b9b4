// The common handler every contender runs, shared by the benchmark suite and the
// instruction-count tool.

/// Where every handler adds the value it receives. Each handler captures a `Sink`, as a real
/// handler captures state. (A closure whose one capture is a class reference uses that object
/// as its context, so making one allocates nothing; what a contender allocates per handler is
/// its own: a generic API that stores the closure wraps it in a thunk, for example.)
///
/// The total lives behind a pointer, so the handler's work is one load, one add and one store
/// with no exclusivity check. The contended scenario's handlers race on it on purpose (its
/// total is not checked); the other scenarios that deliver check the exact total.
public final class Sink: @unchecked Sendable {
  public let slot: UnsafeMutablePointer<Int>

  public init() {
    // A cache line of its own.
    slot = .allocate(capacity: 8)
    slot.initialize(repeating: 0, count: 8)
  }

  deinit {
    slot.deallocate()
  }

  @inlinable
  public var total: Int {
    get { slot.pointee }
    set { slot.pointee = newValue }
  }
}

/// The handler every contender runs. Not inlined, so that each call makes a fresh closure
/// context, the same way for everyone.
@inline(never)
public func makeHandler(_ sink: Sink) -> @Sendable (Int) -> Void {
  { value in sink.slot.pointee &+= value }
}
