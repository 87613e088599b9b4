// An async handler runs in tasks of its own, later: a local `var` of the code that
// registered it stays out of its reach.
import ObservableKit

final class Loader: Sendable {}

func load(_ event: SharedEvent<Int>, loader: Loader) {
  var total = 0
  event.observe(with: loader, policy: .serial) { _, value async in
    total += value  // expected: data race
  }
  _ = total
}
