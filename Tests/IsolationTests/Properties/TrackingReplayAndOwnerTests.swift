#if canImport(Observation)
import Observation
import ObservableKit
import Testing
import TestSupport

/// A replay of `ReadOnlyProperty(tracking:)` gives what `value` reads, and the owner-bound
/// form `ReadOnlyProperty(tracking: self) { … }` lets a view model track itself without a
/// cycle.
@Suite("Tracking property: replays and owner-bound tracking")
@MainActor
struct TrackingReplayAndOwnerTests {
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Observable
  final class Model {
    var home = 0
    init() {}
  }

  /// A view model that tracks its own state, holding the tracking property, its
  /// subscription and a tracked object in its own bag.
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @MainActor @Observable
  final class SearchModel {
    var query = ""
    @ObservationIgnored var heading: [String] = []
    @ObservationIgnored let bag = DisposeBag()
    @ObservationIgnored let resource: Tracked
    @ObservationIgnored var title: ReadOnlyProperty<String>?

    init(resource: Tracked) {
      self.resource = resource
      let title = ReadOnlyProperty(tracking: self) { $0.query.uppercased() }
      title.observe(with: self) { model, text in model.heading.append(text) }.disposed(by: bag)
      self.title = title
    }
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Contract: a replay gives what value reads, also while a recompute is on its way")
  func aSecondObserverIsReplayedWhatValueReads() async {
    let model = Model()
    let home = ReadOnlyProperty(tracking: { model.home })
    let first = TrackingRecorder<Int>()
    let firstToken = home.observe { first.record($0) }
    model.home = 5  // the recompute is enqueued, and has not run
    let second = TrackingRecorder<Int>()
    let secondToken = home.observe { second.record($0) }
    #expect(home.value == 5)
    #expect(second.values == [5], "the replay gives what value reads, never the 0 from before the change")
    #expect(first.values.last == 5)
    model.home = 7
    await second.waitUntil { $0.last == 7 }
    await first.waitUntil { $0.last == 7 }
    #expect(first.values.first == 0)
    #expect(first.values == first.values.sorted(), "never an older value after a newer one")
    let changes = TrackingRecorder<Int>()
    let changesToken = home.observeChanges { changes.record($0) }
    #expect(changes.values.isEmpty, "observeChanges has no replay")
    [firstToken, secondToken, changesToken].forEach { $0.dispose() }
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Contract: the owner-bound form tracks the owner and recomputes on its changes")
  func theOwnerBoundFormTracksTheOwner() async {
    let lifetimes = LifetimeTracker()
    let model = SearchModel(resource: lifetimes.make())
    let log = TrackingRecorder<String>()
    let token = model.title?.observeChanges { log.record($0) }
    model.query = "swift"
    await log.waitForCount(1)
    #expect(log.values == ["SWIFT"])
    #expect(model.heading == ["", "SWIFT"])
    #expect(model.title?.value == "SWIFT")
    token?.dispose()
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Contract: a view model tracking itself, stored in its own bag, is no cycle")
  func aViewModelTrackingItselfIsReleased() async {
    let lifetimes = LifetimeTracker()
    weak var released: SearchModel?
    var title: ReadOnlyProperty<String>?
    do {
      let model = SearchModel(resource: lifetimes.make())
      released = model
      model.query = "a"  // leaves a recompute and a change callback on their way
      title = model.title
      #expect(title?.value == "A")
    }
    #expect(released == nil, "the model deinitialized: the tracking property holds it weakly")
    #expect(lifetimes.liveCount == 0)
    #expect(title?.value == "A", "once the owner has gone, value keeps the last value read")
    title = nil
    _ = title
  }
}
#endif
