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

  /// The shared family's isolated `observe` and `observeChanges` (the caller's isolation),
  /// and its `observeChangesNonisolated`, are named by their lines.
  @MainActor
  @Test func sharedIsolatedSubscriptionsAreNamedByTheirLines() async {
    let event = SharedEvent<Int>()
    let property = SharedProperty(0)
    var tokens: [any Disposable] = []
    var lines: [Int] = []
    let found = await survivors {
      lines.append(#line); tokens.append(event.observe { _ in })
      lines.append(#line); tokens.append(property.observe { _ in })
      lines.append(#line); tokens.append(property.observeChanges { _ in })
      lines.append(#line); tokens.append(property.observeChangesNonisolated { _ in })
    }
    #expect(found.map(\.description) == lines.map { "subscription at \(Self.file):\($0)" })
    tokens.forEach { $0.dispose() }
  }

  /// Both hubs' plain spellings are named by their lines.
  @MainActor
  @Test func hubSubscriptionsOfBothFamiliesAreNamedByTheirLines() async {
    let hub = EventHub()
    let shared = SharedEventHub()
    let message = HubMessage<Int>("LeakCheckSiteTests.hubs")
    var tokens: [any Disposable] = []
    var lines: [Int] = []
    let found = await survivors {
      lines.append(#line); tokens.append(hub.observe(message) { _ in })
      lines.append(#line); tokens.append(shared.observe(message) { _ in })
      lines.append(#line); tokens.append(shared.observeNonisolated(message) { _ in })
      lines.append(#line); tokens.append(shared.events(message).observe { _ in })
    }
    #expect(found.map(\.site) == lines.map { "\(Self.file):\($0)" })
    tokens.forEach { $0.dispose() }
  }

  /// What a model exposes (read-only views, operator chains) is named by the line that
  /// observes it, in both families.
  @MainActor
  @Test func readOnlyViewsAndChainsAreNamedByTheirLines() async {
    let event = ObservableEvent<Int>()
    let property = Property(0)
    let sharedEvent = SharedEvent<Int>()
    let sharedProperty = SharedProperty(0)
    var tokens: [any Disposable] = []
    var lines: [Int] = []
    let found = await survivors {
      lines.append(#line); tokens.append(event.readOnly.observe { _ in })
      lines.append(#line); tokens.append(event.map { $0 + 1 }.observe { _ in })
      lines.append(#line); tokens.append(property.readOnly.observe { _ in })
      lines.append(#line); tokens.append(property.readOnly.observeChanges { _ in })
      lines.append(#line); tokens.append(property.map { $0 + 1 }.observe { _ in })
      lines.append(#line); tokens.append(sharedEvent.readOnly.observeNonisolated { _ in })
      lines.append(#line); tokens.append(sharedEvent.readOnly.observe { _ in })
      lines.append(#line); tokens.append(sharedProperty.readOnly.observeNonisolated { _ in })
      lines.append(#line); tokens.append(sharedProperty.readOnly.observeChangesNonisolated { _ in })
      lines.append(#line); tokens.append(sharedProperty.readOnly.observeChanges { _ in })
      lines.append(#line); tokens.append(sharedProperty.map { $0 + 1 }.observe { _ in })
    }
    #expect(found.map(\.site) == lines.map { "\(Self.file):\($0)" })
    tokens.forEach { $0.dispose() }
  }

  /// A recorder is named once, by its `record()` line: never by a line inside the library.
  @MainActor
  @Test func aRecorderIsNamedOnlyByItsRecordLine() async {
    let event = ObservableEvent<Int>()
    let shared = SharedEvent<Int>()
    var recorders: [AnyObject] = []
    var lines: [Int] = []
    let found = await survivors {
      let confined = event.record(); lines.append(#line)
      let sharedRecorder = shared.record(); lines.append(#line)
      recorders = [confined, sharedRecorder]
    }
    #expect(found.map(\.description) == lines.map { "record() at \(Self.file):\($0)" })
    #expect(!found.contains { $0.site.hasPrefix("ObservableKit") && !$0.site.hasPrefix("ObservableKitTestingTests/") })
    #expect(recorders.count == 2)
    recorders = []
    _ = recorders
  }

  /// No file of the package's libraries is ever named; a user's module whose name only
  /// starts like the library's is.
  @Test func libraryFilesAreNeverNamed() {
    #expect(SubscriptionSites.isLibraryFile("ObservableKit/Shared/SharedEventSource.swift"))
    #expect(SubscriptionSites.isLibraryFile("Observable/ObservableObjectPublisher.swift"))
    #expect(SubscriptionSites.isLibraryFile("ObservableKitTesting/EventRecorder.swift"))
    #expect(!SubscriptionSites.isLibraryFile("ObservableKitTestingTests/LeakCheckSiteTests.swift"))
    #expect(!SubscriptionSites.isLibraryFile("ObservableApp/Model.swift"))
  }
}
#endif
