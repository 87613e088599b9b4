/// A pass: one walk over a bag's live subscriptions, in subscription order, with the lock
/// let go. The one pass algorithm of the engine: an event's notification, a property's
/// delivery and a weak observer list's visit all run it.
///
/// Invariant where the lock is dropped: a pass starts from a snapshot taken under the lock
/// (the entries buffer, the epoch and the first id it must not reach) and reaches each
/// payload without the lock. Before each one, one atomic load of the epoch tells whether a
/// subscription ended since; then the pass takes a fresh snapshot and resumes at the first
/// subscription it had not reached, so it never reaches one whose removal it could see,
/// never reaches a subscription made after it began, and reaches every other one once.
@usableFromInline
package struct PassSnapshot<Entry: BagEntry> {
  @usableFromInline let entries: ContiguousArray<Entry>
  @usableFromInline let epoch: UInt64
  /// The first id the pass must not reach: subscriptions made after the pass began.
  @usableFromInline let boundary: UInt64

  @inlinable
  init(entries: ContiguousArray<Entry>, epoch: UInt64, boundary: UInt64) {
    self.entries = entries
    self.epoch = epoch
    self.boundary = boundary
  }
}

extension ObserverListLock {
  /// The snapshot a pass over `entries` (a bag's), beginning now, starts from. Call with the
  /// lock held; `boundary` is the owner's next id.
  @inlinable
  func snapshotLocked<Entry: BagEntry>(
    _ entries: ContiguousArray<Entry>,
    boundary: UInt64
  ) -> PassSnapshot<Entry> {
    PassSnapshot(entries: entries, epoch: epoch, boundary: boundary)
  }

  /// Hands the live payloads of `snapshot` to `body`, in subscription order, without the lock.
  ///
  /// Before each call it checks the epoch; if a subscription ended since the snapshot, it
  /// takes the entries that `current` reads from the state, under the lock, and resumes at
  /// the first id it had not reached, never reaching ids at or past the boundary.
  ///
  /// `throughBuffer` picks how the loop reads the entries, not what it does; pass a
  /// constant. Measured with count-instructions.sh: an event's notification through the
  /// array's checked subscript costs a few instructions more per call than through its
  /// buffer (S1 notify); a weak list's visit through the buffer costs a retain and a release
  /// of each observer that the inliner no longer removes (S6 withObservers).
  @inlinable @inline(__always)
  func pass<Entry: BagEntry>(
    over snapshot: borrowing PassSnapshot<Entry>,
    throughBuffer: Bool,
    current: (State) -> ContiguousArray<Entry>,
    _ body: (Entry.Payload) throws -> Void
  ) rethrows {
    // The snapshot is borrowed, not copied: a pass retains no buffer of its own unless a
    // subscription ends during it.
    let interrupted =
      throughBuffer
      ? try snapshot.entries.withUnsafeBufferPointer { try pass(over: $0, from: 0, snapshot, body) }
      : try pass(over: snapshot.entries, from: 0, snapshot, body)
    guard let id = interrupted else { return }
    try resumePass(at: id, boundary: snapshot.boundary, current: current, body)
  }

  /// The rest of a pass that a removal interrupted at `id`, over fresh snapshots.
  ///
  /// Out of line, so that the usual pass, which no removal interrupts, inlines one copy of
  /// the loop. Measured: with this loop inlined too, a `withObservers` pass of the
  /// compatibility classes was no longer inlined into its caller, and a call to each
  /// observer cost a retain and a release more (S6 withObservers in count-instructions.sh),
  /// and a notification more per observer (S1 notify, 10 observers).
  @inlinable @inline(never)
  func resumePass<Entry: BagEntry>(
    at id: UInt64,
    boundary: UInt64,
    current: (State) -> ContiguousArray<Entry>,
    _ body: (Entry.Payload) throws -> Void
  ) rethrows {
    var resume: UInt64? = id
    while let id = resume {
      schedulePoint("pass: a subscription ended; taking a fresh snapshot")
      let (entries, epoch) = withLock { state in (current(state), self.epoch) }
      let refreshed = PassSnapshot(entries: entries, epoch: epoch, boundary: boundary)
      resume = try pass(over: refreshed.entries, from: entries.lowerBound(of: id) { $0.id }, refreshed, body)
    }
  }

  /// Hands the live payloads of `entries`, from `start` on, to `body`; returns the id to
  /// resume at if a subscription ended meanwhile (the epoch moved), nil once done.
  @inlinable @inline(__always)
  func pass<Entry: BagEntry, Entries: RandomAccessCollection<Entry>>(
    over entries: borrowing Entries,
    from start: Int,
    _ snapshot: borrowing PassSnapshot<Entry>,
    _ body: (Entry.Payload) throws -> Void
  ) rethrows -> UInt64? where Entries.Index == Int {
    var index = start
    while index < entries.endIndex {
      let id = entries[index].id
      if id >= snapshot.boundary { return nil }
      guard let payload = entries[index].payload else {
        index += 1
        continue
      }
      schedulePoint("pass: before a call")
      if epoch != snapshot.epoch { return id }
      try body(payload)
      index += 1
    }
    return nil
  }
}
