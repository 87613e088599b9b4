import ObservableKit

/// A search field's model: typing updates `query`; a search runs once the user has stopped
/// typing for `pause`. The clock is injected, so tests drive it with a manual clock.
final class SearchModel<C: Clock> where C.Duration == Duration {
  let query = Property("")
  private(set) var searches: [String] = []
  let searched = ObservableEvent<String>()
  let bag = DisposeBag()

  init(clock: C, pause: Duration = .milliseconds(300)) {
    // The handler runs on the main actor, where the operator was applied: it changes the
    // model's state with no hop, no Task and no assumeIsolated.
    query.changes
      .debounce(for: pause, clock: clock)
      .filter { !$0.isEmpty }
      .observe { [weak self] text in self?.search(text) }
      .disposed(by: bag)
  }

  private func search(_ text: String) {
    searches.append(text)
    searched.notifyObservers(text)
  }
}

/// Waits for the next search of `model`, however long the debounce takes.
func nextSearch<C>(of model: SearchModel<C>) async -> String {
  await withCheckedContinuation { continuation in
    let token = model.searched.once().observe { continuation.resume(returning: $0) }
    token.disposed(by: model.bag)
  }
}

func searchWithDebounce() async {
  let model = SearchModel(clock: ContinuousClock(), pause: .milliseconds(20))
  for prefix in ["s", "sw", "swi", "swift"] { model.query.value = prefix }
  let text = await nextSearch(of: model)
  print("search: \(text), searches \(model.searches)")
}
