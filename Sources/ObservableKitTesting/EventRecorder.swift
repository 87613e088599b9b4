import ObservableKit

/// Records what one subscription delivers, for a test to check: ``values`` now, or after
/// ``waitForValues(count:timeout:fileID:line:isolation:)`` for deliveries that come later.
///
/// Make one with `record()` on any source of either family:
///
/// ```swift
/// let scores = model.score.record()       // a Property: the current value first
/// model.play()
/// #expect(scores.values == [0, 10])
/// ```
///
/// - A source of the confined family (`EventSource`) is recorded with a plain
///   `observe`, so values are recorded synchronously, in the source's domain, as its own
///   handlers run.
/// - A source of the shared family (`SharedEventSource`) is recorded with
///   `observeNonisolated`: on the notifying thread, before the notification returns, from
///   whichever thread or actor notifies.
///
/// A value delivered later (a model that notifies from a task, a time operator on a clock
/// that is not manual) is awaited with ``waitForValues(count:timeout:fileID:line:isolation:)``
/// It returns as soon as the values are there, without polling, and throws ``RecorderTimeout``
/// after `timeout`, naming the line that waited and the line that recorded.
///
/// A recorder made with `record(on:)` (a `DispatchQueue` or `MainActor.shared`) records
/// through that delivery, and ``waitUntilIdle(timeout:fileID:line:isolation:)`` waits until
/// every value notified before the call has arrived.
///
/// The recorder holds its subscription until ``dispose()`` or its deinit.
public final class EventRecorder<Value> {
  @usableFromInline
  struct Waiter: Sendable {
    @usableFromInline let count: Int
    @usableFromInline let continuation: CheckedContinuation<Void, any Error>
  }

  @usableFromInline
  struct Progress: Sendable {
    @usableFromInline var count = 0
    /// Values notified at the source, for a recorder that records through a delivery
    /// (`record(on:)`); a plain recorder records as values are notified, and counts here in
    /// `append`.
    @usableFromInline var notified = 0
    @usableFromInline var nextID = 0
    @usableFromInline var waiters: [Int: Waiter] = [:]
  }

  // The recording path is inlinable, so that it is specialized for the value type where
  // `record()` is called.
  @usableFromInline let recorded = Locked<[Value]>([])
  @usableFromInline let progress = Locked(Progress())
  @usableFromInline let token = RecordingToken()

  /// Where `record()` was called, `fileID:line`.
  public let site: String

  @usableFromInline
  init(site: String) {
    self.site = site
  }

  deinit {
    token.dispose()
    let waiters = progress.withLock { progress in
      defer { progress.waiters = [:] }
      return progress.waiters
    }
    for waiter in waiters.values { waiter.continuation.resume(throwing: CancellationError()) }
  }

  @usableFromInline
  func attach(_ subscription: any Disposable) {
    token.fill(subscription)
  }

  /// Appends one delivered value, and wakes the waits it satisfies.
  @inlinable
  func append(_ value: Value) {
    append(value, notified: true)
  }

  /// Appends one delivered value, and wakes the waits it satisfies; `notified` says that the
  /// value was recorded as it was notified (no delivery in between), so it counts as
  /// notified too.
  @inlinable
  func append(_ value: Value, notified: Bool) {
    recorded.withLock { $0.append(value) }
    let satisfied = progress.withLock { progress -> [CheckedContinuation<Void, any Error>] in
      progress.count += 1
      if notified { progress.notified += 1 }
      // Nothing waits, most of the time: no filtering, so no allocation per value.
      if progress.waiters.isEmpty { return [] }
      let count = progress.count
      let done = progress.waiters.filter { $0.value.count <= count }
      for id in done.keys { progress.waiters[id] = nil }
      return done.values.map(\.continuation)
    }
    for continuation in satisfied { continuation.resume() }
  }

  /// The values delivered so far, in order.
  public var values: [Value] { recorded.withLock { $0 } }

  /// The last value delivered, if any.
  public var last: Value? { recorded.withLock { $0.last } }

  /// Ends the recording subscription; the values stay.
  public func dispose() {
    token.dispose()
  }

  /// Whether the recording subscription has ended.
  public var isDisposed: Bool { token.isDisposed }

  /// Returns once at least `count` values have been delivered in all, at once if they
  /// have; throws ``RecorderTimeout`` if they have not after `timeout` of
  /// `ContinuousClock` time.
  ///
  /// It waits for the deliveries themselves (it resumes when the value that reaches
  /// `count` is recorded), so a test never sleeps or yields in a loop; `timeout` only
  /// bounds a failure.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func waitForValues(
    count: Int,
    timeout: Duration = .seconds(5),
    fileID: String = #fileID,
    line: Int = #line,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    try await Self.wait(for: count, in: progress, timeout: timeout, at: "\(fileID):\(line)", recordedAt: site)
  }

  /// Returns once every value notified at the source before this call has been delivered to
  /// the recorder; throws ``RecorderTimeout`` if they have not after `timeout` of
  /// `ContinuousClock` time, naming this line and the `record` line.
  ///
  /// A recorder made with `record(on:)` counts the values its source notifies, as they are
  /// notified, and the values its delivery (a queue, the main actor) brings; this waits
  /// until the second count reaches what the first was when it was called, resuming when
  /// the last of them is recorded: no sleeping, no polling. A recorder made with `record()`
  /// records as values are notified, so it returns at once. Values notified after the call
  /// are not waited for. A delivery that is disposed before it delivers (``dispose()``)
  /// leaves the wait to its timeout.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func waitUntilIdle(
    timeout: Duration = .seconds(5),
    fileID: String = #fileID,
    line: Int = #line,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    let target = progress.withLock { $0.notified }
    try await Self.wait(for: target, in: progress, timeout: timeout, at: "\(fileID):\(line)", recordedAt: site)
  }

  /// Counts one value notified at the source of a recorder that records through a delivery.
  @usableFromInline
  func noteNotified() {
    progress.withLock { $0.notified += 1 }
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private static func wait(
    for target: Int,
    in progress: Locked<Progress>,
    timeout: Duration,
    at waitSite: String,
    recordedAt site: String
  ) async throws {
    let id = progress.withLock { progress in
      defer { progress.nextID += 1 }
      return progress.nextID
    }
    // The watchdog starts only once the waiter is registered (or the wait is already
    // satisfied), so that it always finds the waiter it is to time out: a watchdog started
    // before the subscription could finish first, find nothing, and leave the wait to hang
    // until a value came. After its sleep it checks again, under the lock, whether the
    // waiter is still there: a value that satisfied it in between resumed it already.
    let watchdog = Locked<Task<Void, Never>?>(nil)
    defer { watchdog.withLock { $0?.cancel() } }
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
      let ready = progress.withLock { progress -> Bool in
        if progress.count >= target { return true }
        progress.waiters[id] = Waiter(count: target, continuation: continuation)
        return false
      }
      if ready {
        continuation.resume()
        return
      }
      let task = Task {
        // A cancelled sleep (the wait ended) leaves the waiter alone: it is gone already.
        do { try await ContinuousClock().sleep(for: timeout) } catch { return }
        let (waiter, count) = progress.withLock { ($0.waiters.removeValue(forKey: id), $0.count) }
        waiter?.continuation.resume(
          throwing: RecorderTimeout(
            expected: target, delivered: count, timeout: timeout, waitSite: waitSite, recordSite: site)
        )
      }
      watchdog.withLock { $0 = task }
    }
  }
}

// Its state (values, counts, continuations, the token) is only touched under its locks;
// it holds no closures.
extension EventRecorder: @unchecked Sendable where Value: Sendable {}

/// A recorder's wait that ran out of time: what it waited for, what came, and where.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct RecorderTimeout: Error, CustomStringConvertible {
  /// How many values the wait expected in all.
  public let expected: Int
  /// How many values had been delivered when the time ran out.
  public let delivered: Int
  /// How long the wait lasted.
  public let timeout: Duration
  /// The `fileID:line` of the wait.
  public let waitSite: String
  /// The `fileID:line` of the `record()` call.
  public let recordSite: String

  /// A sentence naming both sites.
  public var description: String {
    "\(waitSite): waited \(timeout) for \(expected) values, \(delivered) delivered (recorder made at \(recordSite))"
  }
}

extension EventSource {
  /// Records every value this source delivers from now on (a property's current value
  /// first), synchronously, in the source's domain; see ``EventRecorder``.
  @inlinable
  public func record(fileID: String = #fileID, line: Int = #line) -> EventRecorder<Value> {
    let recorder = EventRecorder<Value>(site: "\(fileID):\(line)")
    recorder.attach(observe { [weak recorder] in recorder?.append($0) })
    LeakCheck.current?.track(recorder.subscriptionProbe, "record()", site: recorder.site)
    return recorder
  }
}

extension SharedEventSource {
  /// Records every value this source delivers from now on (a property's current value
  /// first), on the notifying thread, before the notification returns; see
  /// ``EventRecorder``.
  @inlinable
  public func record(fileID: String = #fileID, line: Int = #line) -> EventRecorder<Value> {
    let recorder = EventRecorder<Value>(site: "\(fileID):\(line)")
    recorder.attach(observeNonisolated { [weak recorder] in recorder?.append($0) })
    LeakCheck.current?.track(recorder.subscriptionProbe, "record()", site: recorder.site)
    return recorder
  }
}

extension EventRecorder {
  /// The recorder's subscription, for the leak check.
  @usableFromInline
  var subscriptionProbe: any Disposable { token }
}

/// The recorder's subscription: disposes it once, and at once if it comes after a dispose.
@usableFromInline
final class RecordingToken: Disposable {
  private let state = Locked<(token: (any Disposable)?, isDisposed: Bool)>((nil, false))

  @usableFromInline
  init() {}

  @usableFromInline
  func fill(_ token: any Disposable) {
    let disposeNow = state.withLock { state in
      if state.isDisposed { return true }
      state.token = token
      return false
    }
    if disposeNow { token.dispose() }
  }

  @usableFromInline
  func dispose() {
    let token = state.withLock { state in
      state.isDisposed = true
      defer { state.token = nil }
      return state.token
    }
    token?.dispose()
  }

  @usableFromInline
  var isDisposed: Bool { state.withLock { $0.isDisposed } }
}
