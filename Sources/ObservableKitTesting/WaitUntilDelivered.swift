import ObservableKit

/// Returns once the handlers of every asynchronous delivery under way when it is called have
/// run: every value notified before the call to a subscription owned by an actor
/// (`observe(with: actor) { owner, value in … }`) and to an async handler
/// (`observe(with:policy:) { owner, value async in … }`, either family). Throws
/// ``DeliveryTimeout`` naming this line if they have not after `timeout` of
/// `ContinuousClock` time.
///
/// ```swift
/// @Test func anActorCountsWhatItIsSent() async throws {
///   let counts = SharedEvent<Int>()
///   let tally = Tally(counts: counts)      // observes with itself as owner
///   counts.notifyObservers(2)
///   counts.notifyObservers(3)
///   try await waitUntilDelivered()
///   #expect(await tally.total == 5)
/// }
/// ```
///
/// - It waits without polling: the delivery that runs the last handler resumes it.
/// - It waits for the deliveries in flight when it is called, of every subscription in the
///   process (a run of values that keeps arriving keeps its delivery in flight, so a source
///   that never stops bounds the wait by its timeout only). Values notified after the call
///   start new work that it does not wait for.
/// - Deliveries through a queue or the main actor are waited for with a recorder's
///   `waitUntilIdle` (`record(on:)`); synchronous handlers have run when `notifyObservers`
///   returns. A plain `observe` whose handler keeps the isolation of an actor other than
///   the main actor is not counted: observe with the actor as owner instead.
/// - It needs a debug build of ObservableKit, where deliveries are counted; in a release
///   build it throws ``DeliveryTimeout`` at once, saying so, rather than wait for nothing.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public func waitUntilDelivered(
  timeout: Duration = .seconds(5),
  fileID: String = #fileID,
  line: Int = #line,
  isolation: isolated (any Actor)? = #isolation
) async throws {
  let site = "\(fileID):\(line)"
  guard DeliveriesInFlight.isCounting else {
    throw DeliveryTimeout(pending: nil, timeout: .zero, waitSite: site)
  }
  // Resumed once: by the last delivery, or by the watchdog.
  let resumed = Locked(false)
  let watchdog = Locked<Task<Void, Never>?>(nil)
  defer { watchdog.withLock { $0?.cancel() } }
  try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
    let finish: @Sendable (Result<Void, any Error>) -> Void = { result in
      let first = resumed.withLock { resumed in
        defer { resumed = true }
        return !resumed
      }
      if first { continuation.resume(with: result) }
    }
    // Registered before the watchdog starts, so that the watchdog always finds it.
    guard let wait = DeliveriesInFlight.whenDelivered({ finish(.success(())) }) else { return }
    let task = Task {
      do { try await ContinuousClock().sleep(for: timeout) } catch { return }
      // Checked again after the sleep: a wait woken meanwhile is gone from the ledger.
      guard let pending = DeliveriesInFlight.cancelWait(wait) else { return }
      finish(.failure(DeliveryTimeout(pending: pending, timeout: timeout, waitSite: site)))
    }
    watchdog.withLock { $0 = task }
  }
}

/// A ``waitUntilDelivered(timeout:fileID:line:isolation:)`` that ran out of time.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct DeliveryTimeout: Error, CustomStringConvertible {
  /// How many deliveries were still under way; nil when ObservableKit was built for release,
  /// where nothing is counted.
  public let pending: Int?
  /// How long the wait lasted.
  public let timeout: Duration
  /// The `fileID:line` of the wait.
  public let waitSite: String

  /// A sentence naming the waiting line.
  public var description: String {
    guard let pending else {
      return "\(waitSite): waitUntilDelivered needs a debug build of ObservableKit, which counts deliveries"
    }
    return "\(waitSite): waited \(timeout) for asynchronous deliveries, \(pending) still under way"
  }
}

extension EventRecorder {
  /// Advances `clock` by `duration` and throws ``UnexpectedValues`` if the recorder received
  /// anything meanwhile: the way to say "nothing more comes" of a time operator.
  ///
  /// ```swift
  /// let results = model.results.record()      // a debounce on a ManualClock
  /// model.query.value = "swift"
  /// try await results.expectNoValues(for: .milliseconds(299), on: clock)
  /// await clock.advance(by: .milliseconds(1))
  /// #expect(results.values == [["swift 1", "swift 2"]])
  /// ```
  ///
  /// `ManualClock.advance(by:)` returns once every timer due by the new time has fired and
  /// its handlers have run, so what they deliver synchronously (a recorder made with
  /// `record()`) is counted; a delivery through a queue or the main actor is not awaited.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  public func expectNoValues(
    for duration: Duration,
    on clock: ManualClock,
    fileID: String = #fileID,
    line: Int = #line,
    isolation: isolated (any Actor)? = #isolation
  ) async throws {
    let before = recorded.withLock { $0.count }
    await clock.advance(by: duration)
    let arrived = recorded.withLock { Array($0.dropFirst(before)) }
    if !arrived.isEmpty {
      throw UnexpectedValues(
        values: arrived.map { String(describing: $0) }, duration: duration,
        waitSite: "\(fileID):\(line)", recordSite: site)
    }
  }
}

/// Values that came while ``EventRecorder/expectNoValues(for:on:fileID:line:isolation:)``
/// expected none.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
public struct UnexpectedValues: Error, CustomStringConvertible {
  /// The values that came, described.
  public let values: [String]
  /// How long the clock was advanced.
  public let duration: Duration
  /// The `fileID:line` of the expectation.
  public let waitSite: String
  /// The `fileID:line` of the `record()` call.
  public let recordSite: String

  /// A sentence naming both sites and the values.
  public var description: String {
    "\(waitSite): expected no values for \(duration), got \(values.count): "
      + values.joined(separator: ", ") + " (recorder made at \(recordSite))"
  }
}
