// A shared source observed with `observe { }` from nonisolated code: the handler runs on the
// notifying thread, so it must be @Sendable; capturing a non-Sendable object the caller
// keeps using would race.
import ObservableKit

final class Counter {
  var count = 0
}

func countValues(of event: SharedEvent<Int>) -> Counter {
  let counter = Counter()
  _ = event.observe { counter.count += $0 }  // expected: data race
  counter.count = 0
  return counter
}
