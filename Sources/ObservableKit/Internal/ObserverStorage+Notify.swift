/// Notifications and the pass frame: a notification made from inside a pass of the
/// same storage, on the same thread, is queued behind that pass (see `PassFrame`).
///
/// Invariant: a frame lives on the stack of the thread that pushed it, and only that thread
/// queues into it or drains it, so the queue needs no lock; the drain delivers each queued
/// value with a fresh snapshot, in order, after the pass.
extension ObserverStorage {
  /// Whether this thread is inside a pass of this storage (it holds the turn, if the owner
  /// uses one): the queue for notifications made from inside it.
  @inlinable
  package var currentPassQueue: UnsafeMutablePointer<ContiguousArray<Value>?>? {
    PassFrame.queue(of: objectID, as: Value.self)
  }

  /// Delivers `value` to every handler, in subscription order, on this thread.
  ///
  /// A notification that arrives from inside a handler on this thread is queued and
  /// delivered after the current pass; see ``withNewPassFrame(_:)``.
  @inlinable
  package func notify(_ value: Value) {
    if let queue = currentPassQueue {
      Self.enqueue(value, in: queue)
      return
    }
    withNewPassFrame { runPass(with: value) }
  }

  /// Queues `value` behind the pass in progress on this thread, whose queue
  /// ``currentPassQueue`` returned.
  @inlinable
  package static func enqueue(_ value: Value, in queue: UnsafeMutablePointer<ContiguousArray<Value>?>) {
    if queue.pointee == nil { queue.pointee = [value] } else { queue.pointee!.append(value) }
  }

  /// Runs `body` as a pass of this storage on this thread: notifications of this storage
  /// made on this thread while it runs are queued (see ``currentPassQueue``), and delivered
  /// in order, each with a fresh snapshot, when it returns.
  @inlinable
  package func withNewPassFrame(_ body: () -> Void) {
    var queue: ContiguousArray<Value>? = nil
    withUnsafeMutablePointer(to: &queue) { queue in
      PassFrame.push(owner: objectID, queue: queue) {
        body()
        schedulePoint("frame: draining the notifications queued during the pass")
        var next = 0
        while let pending = queue.pointee, next < pending.count {
          let value = pending[next]
          next += 1
          runPass(with: value)
        }
      }
    }
  }
}

/// Notifications that record each value in the critical section that takes the pass's
/// snapshot: the replay of a replaying event (`Events/EventReplay.swift`).
///
/// Invariant: a value is recorded under the storage lock together with the snapshot of the
/// pass that delivers it, and a subscription reads the record under the same lock. So a
/// subscription made before that critical section is in the snapshot and hears the value
/// live, and one made after it finds the value in the record: never both, never neither. A
/// notification queued behind a pass is recorded when its own pass takes its snapshot, not
/// when it is queued, for the same reason.
extension ObserverStorage {
  /// ``notify(_:)``, recording `value` with `record` under the lock that takes the pass's
  /// snapshot. `record` must not call user code; what it returns (a value it evicted) is
  /// released after the lock is gone.
  @inlinable
  package func notify<Evicted>(_ value: Value, recording record: (Value) -> Evicted) {
    if let queue = currentPassQueue {
      Self.enqueue(value, in: queue)
      return
    }
    withNewPassFrame(recording: record) { deliver(value, recording: record) }
  }

  /// ``withNewPassFrame(_:)`` whose queued notifications are recorded by `record` as they
  /// are delivered.
  @inlinable
  package func withNewPassFrame<Evicted>(recording record: (Value) -> Evicted, _ body: () -> Void) {
    var queue: ContiguousArray<Value>? = nil
    withUnsafeMutablePointer(to: &queue) { queue in
      PassFrame.push(owner: objectID, queue: queue) {
        body()
        schedulePoint("frame: draining the recorded notifications queued during the pass")
        var next = 0
        while let pending = queue.pointee, next < pending.count {
          let value = pending[next]
          next += 1
          deliver(value, recording: record)
        }
      }
    }
  }

  /// One pass with `value`, recorded with the snapshot.
  @inlinable
  func deliver<Evicted>(_ value: Value, recording record: (Value) -> Evicted) {
    let (snapshot, evicted) = withLock { header in (snapshotLocked(header), record(value)) }
    withExtendedLifetime(evicted) {
      forEachHandler(in: snapshot) { $0(value) }
    }
  }
}
