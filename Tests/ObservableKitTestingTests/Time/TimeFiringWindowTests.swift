import ObservableKit
import ObservableKitTesting
import TestSupport
import Testing

/// The window between a timer claiming a deadline and its task running on the operator's
/// actor: a value that arrives in it must not be delivered early, and must not make the
/// value that was due at the deadline be lost. The main actor is kept busy while a detached
/// task advances the clock, so the timer's task waits for it exactly there.
@MainActor
@Suite("Time operators: a value that arrives while a firing waits for the actor")
struct TimeFiringWindowTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(
    "debounce: 'a', the clock reaches a's deadline while the main actor is busy, 'b' at that instant: a goes then, b a duration later",
    arguments: TimeSurface.allCases)
  func debounceValueArrivingAtTheClaimedDeadline(surface: TimeSurface) async throws {
    try await run(.debounce, on: surface, before: [1], expectedAtDeadline: [1])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(
    "throttle(latest: true): the value waiting at the interval's end goes then, the one arriving at that instant opens no early delivery",
    arguments: TimeSurface.allCases)
  func throttleLatestValueArrivingAtTheClaimedDeadline(surface: TimeSurface) async throws {
    try await run(.throttleLatest, on: surface, before: [1, 2, 3], expectedAtDeadline: [1, 3])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(
    "throttle(latest: false): the value arriving at the interval's end belongs to the next interval, not dropped",
    arguments: TimeSurface.allCases)
  func throttleFirstValueArrivingAtTheClaimedDeadline(surface: TimeSurface) async throws {
    try await run(.throttleFirst, on: surface, before: [1, 2, 3], expectedAtDeadline: [1, 2])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test("delay: the value arriving at the claimed deadline goes a duration later", arguments: TimeSurface.allCases)
  func delayValueArrivingAtTheClaimedDeadline(surface: TimeSurface) async throws {
    try await run(.delay, on: surface, before: [1], expectedAtDeadline: [1])
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test(
    "the issue's repro: debounce 'a', advance to 100 ms while the main actor is busy, 'b' at 100 ms; b is not delivered during that advance, a is",
    arguments: [TimeSurface.event, .sharedEvent])
  func debounceRepro(surface: TimeSurface) async throws {
    let clock = ManualClock()
    let values = Guarded<[String]>([])
    let recorded: any Disposable
    let send: (String) -> Void
    if surface == .event {
      let query = ObservableEvent<String>()
      recorded = query.debounce(for: .milliseconds(100), clock: clock).observe { value in
        values.withLock { $0.append(value) }
      }
      send = { query.notifyObservers($0) }
    } else {
      let query = SharedEvent<String>()
      recorded = query.debounce(for: .milliseconds(100), clock: clock).observeNonisolated { value in
        values.withLock { $0.append(value) }
      }
      send = { query.notifyObservers($0) }
    }
    defer { recorded.dispose() }
    send("a")
    let advancing = await advanceOnRunningTask(clock, to: .milliseconds(100))
    try busyWait { clock.now.offset >= .milliseconds(100) }
    send("b")
    await advancing.value
    #expect(values.value == ["a"], "'b' was delivered during the advance to 100 ms, or 'a' was lost")
    await clock.advance(to: .init(offset: .milliseconds(199)))
    #expect(values.value == ["a"])
    await clock.advance(to: .init(offset: .milliseconds(200)))
    #expect(values.value == ["a", "b"])
  }

  /// Sends `before` (the first at 0, the others at 50 ms), keeps the main actor busy while a
  /// detached task advances the clock to 100 ms, sends 9 at 100 ms, then checks what the
  /// advance delivered, and that 9 goes at 200 ms exactly.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private func run(_ kind: TimeRuleKind, on surface: TimeSurface, before: [Int], expectedAtDeadline: [Int]) async throws {
    let clock = ManualClock()
    let subject = TimeSubject(surface)
    var heard: [Int] = []
    let token = subject.subscribe(kind, for: .milliseconds(100), clock: clock) { heard.append($0) }
    defer { token.dispose() }
    subject.send(before[0])
    await clock.advance(to: .init(offset: .milliseconds(50)))
    for value in before.dropFirst() { subject.send(value) }
    let advancing = await advanceOnRunningTask(clock, to: .milliseconds(100))
    // The clock has claimed the deadline at 100 ms and handed it to the timer's task, which
    // now waits for the main actor, held here.
    try busyWait { clock.now.offset >= .milliseconds(100) }
    subject.send(9)
    await advancing.value
    #expect(heard == expectedAtDeadline, "\(kind) on \(surface): at the claimed deadline")
    await clock.advance(to: .init(offset: .milliseconds(199)))
    #expect(heard == expectedAtDeadline, "\(kind) on \(surface): the value that arrived at 100 ms went early")
    await clock.advance(to: .init(offset: .milliseconds(200)))
    #expect(heard == expectedAtDeadline + [9], "\(kind) on \(surface): the value that arrived at 100 ms was lost")
  }

  /// Starts a detached task that advances `clock` to `offset`, and returns once that task runs
  /// on a thread: the main actor is only held busy (`busyWait`) after that, so a busy pool
  /// (the whole suite runs in parallel on two cores) delays the advance while the main actor
  /// is still free, instead of holding the main actor, and every test waiting for it, until
  /// the task gets a thread.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private func advanceOnRunningTask(_ clock: ManualClock, to offset: Duration) async -> Task<Void, Never> {
    let (started, starting) = AsyncStream<Void>.makeStream()
    let advancing = Task.detached {
      starting.yield()
      starting.finish()
      await clock.advance(to: .init(offset: offset))
    }
    for await _ in started { break }
    return advancing
  }

  /// Holds the calling thread (here the main actor) until `condition` holds; fails after 10 s.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  private func busyWait(_ condition: () -> Bool, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let limit = ContinuousClock.now.advanced(by: .seconds(10))
    while !condition() {
      try #require(ContinuousClock.now < limit, "the clock never reached the deadline", sourceLocation: sourceLocation)
    }
  }
}
