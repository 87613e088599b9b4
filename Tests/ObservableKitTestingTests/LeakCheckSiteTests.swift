import ObservableKit
import ObservableKitTesting
import Testing

#if DEBUG
/// The leak check names each subscription made inside it by the line that made it (debug builds).
@Suite("The leak check names subscriptions by their call site")
struct LeakCheckSiteTests {
  /// The survivors of a check that must fail, or a recorded issue if it passed.
  @MainActor
  private func survivors(_ body: @MainActor () -> Void) async -> [LeakCheck.Survivor] {
    do {
      try await withLeakCheck { _ in body() }
      Issue.record("the check should have failed")
      return []
    } catch let failure as LeakCheckFailure {
      return failure.survivors
    } catch {
      Issue.record("unexpected error \(error)")
      return []
    }
  }

  private static let file = "ObservableKitTestingTests/LeakCheckSiteTests.swift"

  @MainActor
  @Test func anEventSubscriptionLeftOpenIsNamedByItsLine() async {
    let event = ObservableEvent<Int>()
    var token: (any Disposable)?
    var line = 0
    let found = await survivors {
      line = #line; token = event.observe { _ in }
    }
    #expect(found.map(\.description) == ["subscription at \(Self.file):\(line)"])
    token?.dispose()
  }

  @MainActor
  @Test func propertyAndHubSubscriptionsAreNamedByTheirLines() async {
    let property = Property(0)
    let hub = EventHub()
    let message = HubMessage<Int>("LeakCheckSiteTests.message")
    var tokens: [any Disposable] = []
    var lines: [Int] = []
    let found = await survivors {
      lines.append(#line); tokens.append(property.observe { _ in })
      lines.append(#line); tokens.append(property.observeChanges { _ in })
      lines.append(#line); tokens.append(hub.observe(message) { _ in })
    }
    #expect(found.map(\.site) == lines.map { "\(Self.file):\($0)" })
    tokens.forEach { $0.dispose() }
  }

  @MainActor
  @Test func sharedNonisolatedSubscriptionsAreNamedByTheirLines() async {
    let event = SharedEvent<Int>()
    let property = SharedProperty(0)
    var tokens: [any Disposable] = []
    var lines: [Int] = []
    let found = await survivors {
      lines.append(#line); tokens.append(event.observeNonisolated { _ in })
      lines.append(#line); tokens.append(property.observeNonisolated { _ in })
    }
    #expect(found.map(\.site) == lines.map { "\(Self.file):\($0)" })
    tokens.forEach { $0.dispose() }
  }

  @MainActor
  @Test func disposedSubscriptionsAndThoseMadeOutsideAreNotSurvivors() async throws {
    let event = ObservableEvent<Int>()
    let outside = event.observe { _ in }
    try await withLeakCheck { _ in
      event.observe { _ in }.dispose()
      let bag = DisposeBag()
      event.observe { _ in }.disposed(by: bag)
      bag.dispose()
    }
    #expect(event.observerCount == 1)
    outside.dispose()
  }
}
#endif
