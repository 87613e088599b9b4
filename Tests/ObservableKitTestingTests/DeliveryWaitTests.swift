import ObservableKit
import ObservableKitTesting
import TestSupport
import Testing

/// An actor that counts what a shared event sends it, with itself as owner.
private actor Tally {
  var total = 0
  var calls = 0

  init(counts: SharedEvent<Int>) {
    counts.observe(with: self) { tally, count in
      tally.total += count
      tally.calls += 1
    }
  }
}

/// An actor whose async handler suspends inside each call.
private actor Library {
  var loaded: [Int] = []

  func start(ids: SharedEvent<Int>) -> any Disposable {
    ids.observe(with: self, policy: .serial) { library, id async in
      await Task.yield()
      library.loaded.append(id)
    }
  }
}

/// Lets a test hold an async handler inside its call, and release it.
private final class Gate: Sendable {
  private let state = Guarded<(open: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

  func pass() async {
    await withCheckedContinuation { continuation in
      let open = state.withLock { state -> Bool in
        if !state.open { state.waiting.append(continuation) }
        return state.open
      }
      if open { continuation.resume() }
    }
  }

  func open() {
    let waiting = state.withLock { state in
      state.open = true
      defer { state.waiting = [] }
      return state.waiting
    }
    waiting.forEach { $0.resume() }
  }
}

#if DEBUG
@Suite("waitUntilDelivered: the handlers of actor owners and async handlers have run")
struct DeliveryWaitTests {
  /// Bounds a failure only: a wait resumes as soon as the handlers have run. Generous, as
  /// the whole suite's blocking tests can hold the cooperative pool for a long time.
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  static var bound: Duration { .seconds(120) }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForAnActorOwnedSubscription() async throws {
    let counts = SharedEvent<Int>()
    let tally = Tally(counts: counts)
    for _ in 0..<200 { counts.notifyObservers(1) }
    try await waitUntilDelivered(timeout: Self.bound)
    #expect(await tally.total == 200)
    #expect(await tally.calls == 200)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForValuesNotifiedFromOtherThreads() async throws {
    let counts = SharedEvent<Int>()
    let tally = Tally(counts: counts)
    race(threads: 4) { _ in
      for _ in 0..<100 { counts.notifyObservers(1) }
    }
    try await waitUntilDelivered(timeout: Self.bound)
    #expect(await tally.total == 400)
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForAnAsyncHandlerOfAnActor() async throws {
    let ids = SharedEvent<Int>()
    let library = Library()
    let token = await library.start(ids: ids)
    for id in 1...50 { ids.notifyObservers(id) }
    try await waitUntilDelivered(timeout: Self.bound)
    #expect(await library.loaded == Array(1...50))
    token.dispose()
  }

  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func waitsForAsyncHandlersOfBothFamiliesOnTheMainActor() async throws {
    @MainActor final class Screen {
      var shown: [Int] = []
      let bag = DisposeBag()
    }
    let screen = Screen()
    let confined = ObservableEvent<Int>()
    let shared = SharedEvent<Int>()
    confined.observe(with: screen, policy: .serial) { screen, value async in
      await Task.yield()
      screen.shown.append(value)
    }.disposed(by: screen.bag)
    let log = ValueLog<Int>()
    shared.observe(with: screen, policy: .serial) { _, value async in
      await Task.yield()
      log.record(value)
    }.disposed(by: screen.bag)
    for value in 1...20 {
      confined.notifyObservers(value)
      shared.notifyObservers(value)
    }
    try await waitUntilDelivered(timeout: Self.bound)
    #expect(screen.shown == Array(1...20))
    #expect(log.values == Array(1...20))
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aHandlerThatDoesNotFinishFailsNamingTheWaitingLine() async throws {
    final class Owner: Sendable {}
    let gate = Gate()
    let owner = Owner()
    let event = SharedEvent<Int>()
    let token = event.observe(with: owner, policy: .serial) { _, _ async in await gate.pass() }
    event.notifyObservers(1)
    var line = 0
    do {
      line = #line; try await waitUntilDelivered(timeout: .milliseconds(50))
      Issue.record("the wait should have timed out")
    } catch let timeout as DeliveryTimeout {
      #expect(timeout.waitSite == "ObservableKitTestingTests/DeliveryWaitTests.swift:\(line)")
      #expect((timeout.pending ?? 0) >= 1)
      #expect(timeout.description.contains("DeliveryWaitTests.swift:\(line)"))
    }
    gate.open()
    try await waitUntilDelivered(timeout: Self.bound)
    token.dispose()
  }

  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func aZeroTimeoutNeverHangs() async {
    let outcome = await finishing(within: 240) { () -> Int in
      var ended = 0
      for _ in 0..<2_000 {
        do { try await waitUntilDelivered(timeout: .zero) } catch {}
        ended += 1
      }
      return ended
    }
    #expect(outcome == 2_000)
  }
}
#endif

@Suite("expectNoValues: nothing is delivered while a ManualClock advances")
struct ExpectNoValuesTests {
  @MainActor
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func passesWhileNothingComesAndFailsWhenAValueDoes() async throws {
    let clock = ManualClock()
    let query = ObservableEvent<String>()
    let searches = query.debounce(for: .milliseconds(300), clock: clock).record()
    query.notifyObservers("swift")
    try await searches.expectNoValues(for: .milliseconds(299), on: clock)
    var line = 0
    do {
      line = #line; try await searches.expectNoValues(for: .milliseconds(1), on: clock)
      Issue.record("the debounced value should have been reported")
    } catch let unexpected as UnexpectedValues {
      #expect(unexpected.values == ["swift"])
      #expect(unexpected.waitSite == "ObservableKitTestingTests/DeliveryWaitTests.swift:\(line)")
      #expect(unexpected.recordSite == searches.site)
    }
    #expect(searches.values == ["swift"])
    try await searches.expectNoValues(for: .seconds(10), on: clock)
  }
}
