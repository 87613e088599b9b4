// An actor-owned handler runs isolated to its owner, and to nothing else: another actor's
// state, or a local of the code that registered it, stays out of reach.
import ObservableKit

actor Counter {
  var count = 0
}

actor Mirror {
  var count = 0

  func follow(_ event: SharedEvent<Int>, other: Counter) {
    var seen = 0
    event.observe(with: self) { mirror, value in
      mirror.count += value
      other.count += value  // expected error: actor-isolated property 'count' can not be mutated
      seen += value  // expected: data race
    }
    _ = seen
  }
}
