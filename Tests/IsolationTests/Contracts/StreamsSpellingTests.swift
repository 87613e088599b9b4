import ObservableKit
import Testing
import TestSupport

// The spellings of async-source events, replay, flatMapLatest and take(until:) as users
// write them, in Swift 6 mode.

private struct Message: Sendable, Equatable {
  let text: String
}

private final class City {
  let name: String
  let price: Property<Double>

  init(_ name: String, price: Double) {
    self.name = name
    self.price = Property(price)
  }
}

private final class SharedCity: Sendable {
  let price: SharedProperty<Double>

  init(price: Double) {
    self.price = SharedProperty(price)
  }
}

/// Prices as an async sequence of Double that never fails (typed failures need macOS 15).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private func prices(for symbol: String) -> some AsyncSequence<Double, Never> & Sendable {
  AsyncStream<Double> { continuation in
    for price in [1.0, 2.0, 3.0] { continuation.yield(price) }
    continuation.finish()
  }
}

private func waitUntil(
  isolation: isolated (any Actor)? = #isolation,
  _ condition: () -> Bool
) async -> Bool {
  for _ in 0..<200_000 where !condition() { await Task.yield() }
  return condition()
}

@Suite("Spellings: async sources, replay, flatMapLatest, take(until:)")
struct StreamsSpellingTests {
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  @Test func sharedEventFromPrices() async {
    let prices = SharedEvent(prices(for: "AAPL"))
    let log = ValueLog<Double>()
    let token = prices.observeNonisolated(log.handler)
    #expect(await waitUntil { prices.isFinished })
    #expect(log.values == [1, 2, 3])
    #expect(token.isDisposed)
  }

  @Test func lazyStartStop() async {
    let (ticks, continuation) = AsyncStream<Int>.makeStream()
    let lazy = SharedEvent(ticks, start: .onFirstObserver, stop: .afterLastObserver)
    let log = ValueLog<Int>()
    let ended = ValueLog<Bool>()
    lazy.onFinish { end in ended.record(end.error == nil) }
    let token = lazy.observeNonisolated(log.handler)
    continuation.yield(1)
    continuation.finish()
    #expect(await waitUntil { ended.values == [true] })
    #expect(log.values == [1] && lazy.isFinished)
    token.dispose()
  }

  @Test func replaySpellings() {
    let recent = ObservableEvent<Message>(replay: 3)
    for text in ["a", "b", "c", "d"] { recent.notifyObservers(Message(text: text)) }
    var heard: [String] = []
    let token = recent.observe { heard.append($0.text) }
    #expect(heard == ["b", "c", "d"])
    token.dispose()

    let log = SharedEvent<String>(replay: 10)
    log.notifyObservers("started")
    let lines = ValueLog<String>()
    let lineToken = log.observeNonisolated(lines.handler)
    #expect(lines.values == ["started"])
    lineToken.dispose()
  }

  @MainActor
  @Test func flatMapLatestSpelling() {
    let paris = City("Paris", price: 10), rome = City("Rome", price: 20)
    let selectedCity = Property(paris)
    let price: ReadOnlyProperty<Double> = selectedCity.flatMapLatest { $0.price }
    var heard: [Double] = []
    let token = price.observe { heard.append($0) }
    selectedCity.value = rome
    paris.price.value = 11
    #expect(heard == [10, 20])
    token.dispose()

    // Without the annotation, the property overload is chosen.
    let inferred = selectedCity.flatMapLatest { $0.price }
    #expect(inferred.value == 20)

    let sharedSelected = SharedProperty(SharedCity(price: 1))
    let sharedPrice: SharedReadOnlyProperty<Double> = sharedSelected.flatMapLatest { $0.price }
    #expect(sharedPrice.value == 1)
  }

  @MainActor
  @Test func takeUntilSpelling() {
    let ticks = ObservableEvent<Int>()
    let screenClosed = ObservableEvent<Void>()
    let untilClosed = ticks.take(until: screenClosed)
    var heard: [Int] = []
    let token = untilClosed.observe { heard.append($0) }
    ticks.notifyObservers(1)
    screenClosed.notifyObservers()
    ticks.notifyObservers(2)
    #expect(heard == [1] && token.isDisposed)

    let sharedTicks = SharedEvent<Int>()
    let sharedClosed = SharedEvent<Void>()
    let sharedUntil = sharedTicks.take(until: sharedClosed)
    let log = ValueLog<Int>()
    let sharedToken = sharedUntil.observeNonisolated(log.handler)
    sharedTicks.notifyObservers(1)
    sharedClosed.notifyObservers()
    sharedTicks.notifyObservers(2)
    #expect(log.values == [1] && sharedToken.isDisposed)
  }

  /// A main-actor model observes an async-source event as users write it: no Task, no
  /// unchecked Sendable.
  @MainActor
  @Test func mainActorModel() async {
    @MainActor final class Ticker {
      var last = 0
      var token: (any Disposable)?
      init(_ ticks: SharedEvent<Int>) {
        token = ticks.observe { [weak self] in self?.last = $0 }
      }
    }
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let ticks = SharedEvent(stream, replay: 1)
    let ticker = Ticker(ticks)
    continuation.yield(5)
    #expect(await waitUntil { ticker.last == 5 })
    continuation.finish()
    ticker.token?.dispose()
  }
}
