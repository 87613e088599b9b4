import ObservableKit

// Async work in a handler: search as the user types. The latest query wins; the search in
// flight for an older one is cancelled. The value type crosses domains, so it says
// `nonisolated`: in a module whose default isolation is the main actor, its `Equatable`
// conformance would otherwise be main-actor isolated, and `removeDuplicates` refuses it.

nonisolated struct SearchRow: Equatable {
  let text: String
}

/// A search service with gates the script opens, so that the output does not depend on
/// timing.
actor SearchService {
  private(set) var started: [String] = []
  private var gates: [String: CheckedContinuation<Void, any Error>] = [:]
  private var opened: Set<String> = []
  private var cancelled: Set<String> = []
  private var startWaiters: [String: CheckedContinuation<Void, Never>] = [:]

  func search(_ text: String) async throws -> [SearchRow] {
    started.append(text)
    startWaiters.removeValue(forKey: text)?.resume()
    if !opened.contains(text) {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (gate: CheckedContinuation<Void, any Error>) in
          if cancelled.contains(text) { gate.resume(throwing: CancellationError()) } else { gates[text] = gate }
        }
      } onCancel: {
        Task { await self.cancel(text) }
      }
    }
    return [SearchRow(text: text.uppercased())]
  }

  func open(_ text: String) {
    opened.insert(text)
    gates.removeValue(forKey: text)?.resume()
  }

  func waitUntilStarted(_ text: String) async {
    if started.contains(text) { return }
    await withCheckedContinuation { startWaiters[text] = $0 }
  }

  private func cancel(_ text: String) {
    cancelled.insert(text)
    gates.removeValue(forKey: text)?.resume(throwing: CancellationError())
  }
}

@MainActor final class SearchViewModel {
  var rows: [SearchRow] = []
  var cancelled: [String] = []
  let bag = DisposeBag()

  init(query: SharedEvent<String>, service: SearchService) {
    query.map { SearchRow(text: $0) }.removeDuplicates()
      .observe(with: self, policy: .latest) { viewModel, row async in
        do {
          viewModel.rows = try await service.search(row.text)
        } catch {
          viewModel.cancelled.append(row.text)
        }
      }
      .disposed(by: bag)
  }

  func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<100_000 {
      if condition() { return }
      await Task.yield()
    }
    fatalError("the search did not finish within 100,000 yields")
  }
}

@MainActor func searchAsYouType() async {
  let query = SharedEvent<String>()
  let service = SearchService()
  let viewModel = SearchViewModel(query: query, service: service)
  query.notifyObservers("a")
  await service.waitUntilStarted("a")
  query.notifyObservers("ab")  // cancels the search for "a"; runs once it has returned
  query.notifyObservers("ab")  // a duplicate: dropped before the handler
  await service.open("ab")
  await viewModel.waitUntil { viewModel.rows == [SearchRow(text: "AB")] }
  print("search: rows \(viewModel.rows.map(\.text)), cancelled \(viewModel.cancelled), searched \(await service.started)")
}
