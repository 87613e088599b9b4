import ObservableKit
import ObservableKitTesting
import Testing

/// What an indexer indexed; a plain class of the actor's domain.
private final class IndexLog {
  var entries: [String] = []
}

/// An actor that keeps its own debounced subscription, as a model keeps its bag.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
private actor Indexer {
  let query = Property("")
  let bag = DisposeBag()
  private let log = IndexLog()

  var indexed: [String] { log.entries }

  init(clock: ManualClock) {
    // The initializer is not isolated; the operator is applied in `start`.
    _ = clock
  }

  func start(clock: ManualClock) {
    let log = log
    query.changes.debounce(for: .seconds(1), clock: clock)
      .observe { text in log.entries.append(text) }
      .disposed(by: bag)
  }

  /// Ends the subscription: while it lives, its task holds this actor.
  func stop() {
    bag.dispose()
  }

  func type(_ text: String) {
    query.value = text
  }
}

@Suite("Time operators applied inside an actor")
struct TimeLifetimeTests {
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @Test func anActorsOwnDebouncedSubscriptionDeliversOnItBurstAfterBurst() async {
    let clock = ManualClock()
    let indexer = Indexer(clock: clock)
    await indexer.start(clock: clock)
    await indexer.type("a")
    await clock.advance(by: .seconds(1))
    #expect(await indexer.indexed == ["a"])
    await indexer.type("ab")
    await clock.advance(by: .seconds(1))
    #expect(await indexer.indexed == ["a", "ab"])
    await indexer.stop()
  }
}
