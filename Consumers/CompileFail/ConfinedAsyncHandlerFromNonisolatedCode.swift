// (Swift 6.3 also reports "'nil' is not compatible with expected argument type 'any Actor'"
// in the expansion of the default argument `#isolation`, a generated file; check-consumers.sh
// compares only the errors in this file.)
//
// A confined source's async handler runs in tasks on the caller's actor. Nonisolated code
// has none: its tasks would run elsewhere, beside the code that owns the source.
import ObservableKit

final class Loader {
  var loaded: [Int] = []
}

func load(_ ids: ObservableEvent<Int>, into loader: Loader) {
  ids.observe(with: loader, policy: .serial) { loader, id async in loader.loaded.append(id) }  // expected error: in a synchronous nonisolated context
}
