import ObservableKit

// View models as an app writes them. AppDefaultsUse compiles this file without the
// annotations, under a main-actor default isolation; the two must stay alike.

/// Observes a confined property, which lives on the main actor with it.
final class ScoreViewModel {
  var title = ""
  var ownerTitle = ""
  var mainActorTitle = ""
  var changes: [String] = []
  let bag = DisposeBag()

  init(score: Property<Int>) {
    score.observe { [weak self] in self?.title = "score \($0)" }.disposed(by: bag)
    score.observe(with: self) { viewModel, score in viewModel.ownerTitle = "owner \(score)" }
    score.subscribe(self) { viewModel, new, old in viewModel.changes.append("\(old) -> \(new)") }
    score.observe(on: MainActor.shared) { [weak self] in self?.mainActorTitle = "main \($0)" }
      .disposed(by: bag)
  }
}

/// Observes values that other domains set: each handler runs on the main actor.
final class StatusViewModel {
  var title = ""
  var ownerTitle = ""
  var lastEvent = ""
  var changes: [String] = []
  let bag = DisposeBag()

  init(status: SharedProperty<String>, events: SharedEvent<String>) {
    status.observe { [weak self] in self?.title = $0 }.disposed(by: bag)
    status.observe(with: self) { viewModel, status in viewModel.ownerTitle = "owner \(status)" }
    status.subscribe(self) { viewModel, new, old in viewModel.changes.append("\(old) -> \(new)") }
    events.observe { [weak self] in self?.lastEvent = $0 }.disposed(by: bag)
  }

  /// Waits, a bounded number of turns of the main actor, until `condition` holds.
  func waitUntil(_ what: String, _ condition: () -> Bool) async {
    for _ in 0..<10_000 {
      if condition() { return }
      await Task.yield()
    }
    fatalError("\(what) was not delivered to the main actor within 10,000 yields")
  }
}
