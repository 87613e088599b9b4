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

  /// Calls the handlers of the registrations that `select` picks, now, on this thread, in the
  /// order `select` lists them; nested calls are not queued (like ``deliverNow(_:)``).
  ///
  /// `select` runs under the lock when the pass begins, so registrations made after that are
  /// not reached. A registration that ends before its turn is not called: as in the full
  /// pass, the epoch tells when the selection must be checked again. The cost is that of the
  /// selection, not of a pass over every registration.
  @inlinable
  package func deliverNow(_ value: Value, selecting select: (State) -> [UInt64]) {
    var (selected, snapshotEpoch) = withLock { header in
      (header.liveHandlers(of: select(header.state)), self.epoch)
    }
    var index = 0
    while index < selected.count {
      if epoch != snapshotEpoch {
        let remaining = selected[index...].map(\.id)
        (selected, snapshotEpoch) = withLock { header in
          (header.liveHandlers(of: remaining), self.epoch)
        }
        index = 0
        continue
      }
      selected[index].handler(value)
      index += 1
    }
  }
}

extension ObserverStorageHeader {
  /// The live handlers of `ids`, in the order given; ended or unknown ids are left out.
  @inlinable
  func liveHandlers(
    of ids: [UInt64]
  ) -> ContiguousArray<(id: UInt64, handler: @Sendable (Value) -> Void)> {
    var handlers: ContiguousArray<(id: UInt64, handler: @Sendable (Value) -> Void)> = []
    handlers.reserveCapacity(ids.count)
    for id in ids {
      if let index = index(of: id), let handler = entries[index].handler {
        handlers.append((id, handler))
      }
    }
    return handlers
  }
}
