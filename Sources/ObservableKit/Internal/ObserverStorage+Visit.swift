/// Transactions and a selective pass for owners whose registrations are indexed in the
/// state: the compatibility module's protocol-observer registry, which keeps one
/// registration per observer and one per (key, observer), and must change several at once.
extension ObserverStorage {
  /// Registers the handlers that `body` returns, in one critical section with `body`'s
  /// changes to the state.
  ///
  /// `body` runs under the lock and receives the id the first new handler will get; the
  /// others get the ids that follow, in order. Returning no handlers registers nothing, so
  /// "register unless already registered" is one atomic step. `body` must not call user code.
  @inlinable
  package func register<R>(
    _ body: (inout State, _ firstID: UInt64) -> (handlers: [Handler], result: R)
  ) -> R {
    let (added, result) = withLock { header in
      let (handlers, result) = body(&header.state, header.nextID)
      for handler in handlers {
        header.entries.append(ObserverEntry(id: header.nextID, handler: handler))
        header.nextID += 1
      }
      return (handlers.count, result)
    }
    Diagnostics.subscriptionsChanged(by: added)
    return result
  }

  /// Ends the registrations whose ids `body` returns, in one critical section with `body`'s
  /// changes to the state, and returns their handlers for the caller to release after the
  /// lock is gone.
  ///
  /// Ids that already ended are skipped. Each id ends as with ``removeEntry(_:)``: a
  /// pass in progress does not call it after this returns.
  @inlinable @discardableResult
  package func unregister(_ body: (inout State) -> [UInt64]) -> [Handler] {
    let removed = withLock { header in
      let removed = body(&header.state).compactMap { header.endEntry($0)?.handler }
      guard !removed.isEmpty else { return removed }
      advanceEpochLocked()
      header.compactIfNeeded()
      return removed
    }
    Diagnostics.subscriptionsChanged(by: -removed.count)
    return removed
  }

  /// Hands the live handlers of the registrations that `select` picks to `body`, now, on
  /// this thread; nested calls are not queued (like ``forEachHandler(_:)``).
  ///
  /// `select` runs under the lock and must list ids in ascending order, which is
  /// registration order. It runs when the pass begins, so registrations made after that are
  /// not reached, and again if a registration ends during the pass: as in the full pass,
  /// the epoch tells when the selection must be checked again, and the pass resumes after
  /// the last id it reached. The cost is that of the selection, with no allocation: the ids
  /// and the entries are snapshots of the state's own buffers.
  @inlinable
  package func forEachHandler(selecting select: (State) -> [UInt64], _ body: (Handler) -> Void) {
    var (entries, selected, snapshotEpoch, boundary) = withLock { header in
      (header.entries, select(header.state), self.epoch, header.nextID)
    }
    var next = 0
    while next < selected.count {
      let id = selected[next]
      if id >= boundary { break }
      if epoch != snapshotEpoch {
        (entries, selected, snapshotEpoch) = withLock { header in
          (header.entries, select(header.state), self.epoch)
        }
        next = selected.lowerBound(of: id) { $0 }
        continue
      }
      let index = entries.lowerBound(of: id)
      if index < entries.count, entries[index].id == id, let handler = entries[index].handler {
        body(handler)
      }
      next += 1
    }
  }
}
