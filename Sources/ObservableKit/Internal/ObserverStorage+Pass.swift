/// The storage's passes: the engine's one pass (`ObserverListLock+Pass.swift`, where its
/// invariant is stated) over the storage's handlers, for an event's notification and a
/// property's set.
extension ObserverStorage {
  /// What a pass starts from: the entries, the epoch they belong to, and the first id the
  /// pass must not reach (subscriptions made after the pass began).
  @usableFromInline
  package typealias Snapshot = PassSnapshot<ObserverEntry<Value>>

  /// The snapshot a pass beginning now starts from. Call with the lock held, so that an
  /// owner can take it in the same critical section as its own change.
  @inlinable
  package func snapshotLocked(_ header: ObserverStorageHeader<Value, State>) -> Snapshot {
    locked.snapshotLocked(header.bag.entries, boundary: header.nextID)
  }

  /// Hands every live handler to `body` now, on this thread, in subscription order, over a
  /// snapshot taken now. It queues nothing itself: an event's notification (`runPass(with:)`, run
  /// inside the pass frame of `ObserverStorage+Notify.swift`) is its one caller, and the
  /// frame queues the notifications made from inside a pass.
  @inlinable
  func forEachHandler(_ body: (Handler) -> Void) {
    forEachHandler(in: withLock { snapshotLocked($0) }, body)
  }

  /// Hands the live handlers of `snapshot` to `body`, in subscription order.
  ///
  /// Before each call it checks the epoch; if a subscription ended since the snapshot, it
  /// takes a fresh one and resumes at the first handler it had not reached, never reaching
  /// handlers registered after the pass began.
  ///
  /// Always inlined, with the pass, into the property's set: left to the inliner since
  /// the pass became the bag's, it stayed a call, and `body` a closure called through (S2
  /// property set, 10 observers, in count-instructions.sh shows the difference).
  @inlinable @inline(__always)
  package func forEachHandler(in snapshot: borrowing Snapshot, _ body: (Handler) -> Void) {
    locked.pass(over: snapshot, throughBuffer: true, current: { $0.bag.entries }) { body($0.call) }
  }

  /// One pass with `value` over a snapshot taken now. Out of line, as the compiler kept it
  /// before the pass became the bag's: `notify` and the frame's drain share one copy of the
  /// loop (the counts of S1 in count-instructions.sh were measured so).
  @inlinable @inline(never)
  func runPass(with value: Value) {
    forEachHandler { $0(value) }
  }
}
