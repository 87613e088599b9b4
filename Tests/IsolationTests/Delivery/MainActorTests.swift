import ObservableKit
import Testing
import TestSupport

/// Main-actor observers of both families: synchronous on the main thread when nothing of the
/// subscription waits, in order otherwise.
@Suite("Main actor")
@MainActor
struct MainActorTests {
  @MainActor
  final class ViewModel {
    var title = ""
    var titles: [String] = []
    let bag = DisposeBag()

    init(score: Property<Int>) {
      score.observe { [weak self] in self?.show("observe \($0)") }.disposed(by: bag)
      score.observe(with: self) { model, value in model.show("with \(value)") }
      score.subscribe(self) { newValue, _ in self.show("subscribe \(newValue)") }
    }

    init(shared: SharedProperty<Int>) {
      shared.observe { [weak self] in self?.show("shared \($0)") }.disposed(by: bag)
    }

    func show(_ text: String) {
      title = text
      titles.append(text)
    }
  }

  @Test("Contract: a confined property's main-actor handlers run before value = returns")
  func confinedOnMainActor() {
    let score = Property(0)
    let model = ViewModel(score: score)
    #expect(model.titles == ["observe 0", "with 0"], "the replay ran inside init")
    score.value = 1
    #expect(model.titles == ["observe 0", "with 0", "observe 1", "with 1", "subscribe 1"])
  }

  @Test("Contract: a shared property's main-actor handler hears the replay and main-thread sets at once, on every path")
  func sharedOnMainThreadIsSynchronous() {
    let shared = SharedProperty(0)
    let model = ViewModel(shared: shared)
    #expect(model.title == "shared 0", "right after init the title is set")
    shared.value = 1
    #expect(model.title == "shared 1")
  }

  @Test("Contract: a shared main-actor handler hears sets from other threads later, in order")
  func sharedFromOtherThreadsIsEnqueuedInOrder() async {
    let shared = SharedProperty(0)
    let model = ViewModel(shared: shared)
    await Task.detached {
      for value in 1...50 { shared.value = value }
    }.value
    await waitUntil { model.title == "shared 50" }
    #expect(model.titles.first == "shared 0")
    let values = model.titles.dropFirst().map { Int($0.dropFirst("shared ".count))! }
    #expect(values == values.sorted(), "never out of order")
    #expect(values.last == 50)
  }

  @Test("Contract: a main-thread notification goes behind values of its subscription that still wait")
  func mainThreadValueWaitsBehindQueued() async {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let token = event.observe { recorder.values.append($0) }
    // 1 is enqueued to the main actor and cannot run: this test holds the main actor.
    onAnotherThread { event.notifyObservers(1) }
    event.notifyObservers(2)
    #expect(recorder.values == [], "2 waits behind 1")
    await waitUntil { recorder.values.count == 2 }
    #expect(recorder.values == [1, 2])
    token.dispose()
  }

  @Test("Contract: once dispose() returns, no queued main-actor call starts")
  func disposeStopsQueuedCalls() async {
    let event = SharedEvent<Int>()
    let recorder = Recorder()
    let token = event.observe { recorder.values.append($0) }
    onAnotherThread { for value in 1...5 { event.notifyObservers(value) } }
    token.dispose()
    // Let anything already scheduled run.
    for _ in 0..<100 { await Task.yield() }
    #expect(recorder.values == [])
  }

  @Test("Contract: observe(on: MainActor.shared) is synchronous on the main thread, in order from elsewhere")
  func observeOnMainActor() async {
    let score = Property(0)
    let recorder = Recorder()
    let token = score.observe(on: MainActor.shared) { recorder.values.append($0) }
    #expect(recorder.values == [0], "the replay ran before observe returned")
    score.value = 1
    #expect(recorder.values == [0, 1])
    let shared = SharedEvent<Int>()
    let sharedToken = shared.observe(on: MainActor.shared) { recorder.values.append($0 * 100) }
    onAnotherThread { shared.notifyObservers(2) }
    shared.notifyObservers(3)
    #expect(recorder.values == [0, 1], "3 waits behind 2")
    await waitUntil { recorder.values.count == 4 }
    #expect(recorder.values == [0, 1, 200, 300])
    token.dispose()
    sharedToken.dispose()
  }
}

/// Runs `body` on a new thread and waits for it, keeping the caller's actor busy meanwhile,
/// so that what `body` enqueues to that actor cannot run before this returns.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
  withWatchdog("a notification on another thread", body)
}

@MainActor
final class Recorder {
  var values: [Int] = []
}

/// Yields to the main actor until `condition` holds; fails after a bounded number of turns
/// instead of hanging.
@MainActor
func waitUntil(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: @MainActor () -> Bool
) async {
  for _ in 0..<100_000 {
    if condition() { return }
    await Task.yield()
  }
  Issue.record("condition never held", sourceLocation: sourceLocation)
}
