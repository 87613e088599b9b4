// A confined event debounced from nonisolated code: there is no domain for the timer's
// handler to run in, so the operator does not compile (the shared family takes an actor).
import ObservableKit

@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
func searchAsTheUserTypes(_ query: ObservableEvent<String>) -> any Disposable {
  query.debounce(for: .milliseconds(300)).observe { print($0) }  // expected error: call to actor-isolated instance method 'debounce
}
