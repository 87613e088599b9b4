// A confined source's async handler runs in tasks on the caller's actor. Nonisolated code
// has none: its tasks would run elsewhere, beside the code that owns the source.
import ObservableKit

final class Loader {
  var loaded: [Int] = []
}

func load(_ ids: ObservableEvent<Int>, into loader: Loader) {
  ids.observe(with: loader, policy: .serial) { loader, id async in loader.loaded.append(id) }  // expected error: extra arguments|cannot convert value|cannot infer contextual base|no exact matches
}
