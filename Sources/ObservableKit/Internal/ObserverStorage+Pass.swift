/// A pass: one notification's walk over the registrations, in registration order.
///
/// Invariant where the lock is dropped: a pass starts from a snapshot taken under the lock
/// (the entries buffer, the epoch and the first id it must not reach) and calls handlers
/// without the lock. Before each call one atomic load of the epoch tells whether a
/// subscription ended since; then the pass takes a fresh snapshot and resumes after the last
/// id it reached, so it never calls a handler whose removal it could see, never reaches a
/// registration made after it began, and calls every other one once.
extension ObserverStorage {
  /// What a pass starts from: the entries, the epoch they belong to, and the first id the
  /// pass must not reach (registrations made after the pass began).
  @usableFromInline
  package struct Snapshot {
    @usableFromInline let entries: ContiguousArray<ObserverEntry<Value>>
    @usableFromInline let epoch: UInt64
    @usableFromInline let boundary: UInt64

    @inlinable
    init(entries: ContiguousArray<ObserverEntry<Value>>, epoch: UInt64, boundary: UInt64) {
      self.entries = entries
      self.epoch = epoch
      self.boundary = boundary
    }
  }

  /// The snapshot a pass beginning now starts from. Call with the lock held, so that an
  /// owner can take it in the same critical section as its own change.
  @inlinable
  package func snapshotLocked(_ header: ObserverStorageHeader<Value, State>) -> Snapshot {
    Snapshot(entries: header.entries, epoch: epoch, boundary: header.nextID)
  }

  /// Hands every live handler to `body` now, on this thread, in registration order, over a
  /// snapshot taken now. It queues nothing itself: an event's notification (`deliver`, run
  /// inside the re-entrancy frame of `ObserverStorage+Frame.swift`) is its one caller, and the
  /// frame queues the notifications made from inside a pass.
  @inlinable
  func forEachHandler(_ body: (Handler) -> Void) {
    forEachHandler(in: withLock { snapshotLocked($0) }, body)
  }

  /// Hands the live handlers of `snapshot` to `body`, in registration order.
  ///
  /// Before each call it checks the epoch; if a subscription ended since the snapshot, it
  /// takes a fresh one and resumes after the last handler it reached, never reaching
  /// handlers registered after the pass began.
  @inlinable
  package func forEachHandler(in snapshot: borrowing Snapshot, _ body: (Handler) -> Void) {
    // The snapshot is borrowed, not copied: a pass retains no buffer of its own unless a
    // subscription ends during it.
    var resume = forEachHandler(in: snapshot.entries, from: 0, snapshot, body)
    while let id = resume {
      schedulePoint("storage.pass: a subscription ended; taking a fresh snapshot")
      let (entries, epoch) = withLock { header in (header.entries, self.epoch) }
      let refreshed = Snapshot(entries: entries, epoch: epoch, boundary: snapshot.boundary)
      resume = forEachHandler(in: refreshed.entries, from: entries.lowerBound(of: id), refreshed, body)
    }
  }

  /// Hands the live handlers of `entries`, from `start` on, to `body`; returns the id to
  /// resume at if a subscription ended meanwhile (the epoch moved), nil once done.
  @inlinable
  func forEachHandler(
    in entries: borrowing ContiguousArray<ObserverEntry<Value>>,
    from start: Int,
    _ snapshot: borrowing Snapshot,
    _ body: (Handler) -> Void
  ) -> UInt64? {
    var index = start
    while index < entries.count {
      let id = entries[index].id
      if id >= snapshot.boundary { return nil }
      guard let handler = entries[index].handler else {
        index += 1
        continue
      }
      schedulePoint("storage.pass: before a call")
      if epoch != snapshot.epoch { return id }
      body(handler)
      index += 1
    }
    return nil
  }

  /// One pass with `value` over a snapshot taken now.
  @inlinable
  func deliver(_ value: Value) {
    forEachHandler { $0(value) }
  }
}
