// Scenarios 16 and 17: a persisted property set beside a `UserDefaults.set` plus the
// locked-array notify, and a set of one side of a two-way binding beside two locked-array
// property sets chained by a handler.

import Benchmark
import BenchmarkSupport
import Foundation
import ObservableKit

/// Scenario 16 (`S16 persisted property set 1 obs`): `property.value = value` on a
/// `Property(0, storage: .userDefaults(…))` with one observer, beside the baseline's
/// `defaults.set(value, forKey:)` followed by a `BaselineProperty` set with one observer. The
/// unit is one set (one write and one delivery). Target: at most 1.2 times the baseline.
///
/// Scenario 17 (`S17 bound property set 1 obs per side`): `a.value = value` where
/// `a.bind(to: b)`, each side with one observer, beside two `BaselineProperty` values where a
/// handler of the first sets the second. The unit is one set of `a` (two deliveries to the
/// observers). Target: at most 2 times the baseline.
func registerPersistedAndBound() {
  let sets = 1_000
  let expected = triangle(sets)
  do {
    let scenario = "S20 persisted property set 1 obs"
    let suite = "okit.benchmarks.persisted"
    let state = Lazy { () -> (Property<Int>, Sink, any Disposable, UserDefaults) in
      let defaults = UserDefaults(suiteName: suite)!
      let property = Property(0, storage: .userDefaults("value", in: defaults))
      let sink = Sink()
      return (property, sink, property.observeChanges(makeHandler(sink)), defaults)
    }
    register(scenario, units: sets, .observableKit, closure: { _ in
      let (property, sink, _, _) = state.value
      sink.total = 0
      for value in 0..<sets { property.value = value }
      expect(sink, expected)
    }, teardown: {
      state.existing?.3.removePersistentDomain(forName: suite)
      state.reset()
    })

    let baseline = Lazy { () -> (BaselineProperty<Int>, Sink, UserDefaults) in
      let defaults = UserDefaults(suiteName: suite)!
      let property = BaselineProperty(0)
      let sink = Sink()
      property.add(makeHandler(sink))
      return (property, sink, defaults)
    }
    register(scenario, units: sets, .baseline, closure: { _ in
      let (property, sink, defaults) = baseline.value
      sink.total = 0
      for value in 0..<sets {
        defaults.set(value, forKey: "value")
        property.value = value
      }
      expect(sink, expected)
    }, teardown: {
      baseline.existing?.2.removePersistentDomain(forName: suite)
      baseline.reset()
    })
  }

  do {
    let scenario = "S21 bound property set 1 obs per side"
    let bindings = Lazy { () -> (Property<Int>, Property<Int>, Sink, [any Disposable]) in
      let a = Property(0), b = Property(0)
      let sink = Sink()
      let tokens = [a.bind(to: b), a.observeChanges(makeHandler(sink)), b.observeChanges(makeHandler(sink))]
      return (a, b, sink, tokens)
    }
    register(scenario, units: sets, .observableKit, closure: { _ in
      let (a, _, sink, _) = bindings.value
      sink.total = 0
      for value in 0..<sets { a.value = value }
      expect(sink, 2 * expected)
    }, teardown: bindings.reset)

    let baseline = Lazy { () -> (BaselineProperty<Int>, BaselineProperty<Int>, Sink) in
      let a = BaselineProperty(0), b = BaselineProperty(0)
      let sink = Sink()
      a.add { [unowned b] value in b.value = value }
      a.add(makeHandler(sink))
      b.add(makeHandler(sink))
      return (a, b, sink)
    }
    register(scenario, units: sets, .baseline, closure: { _ in
      let (a, _, sink) = baseline.value
      sink.total = 0
      for value in 0..<sets { a.value = value }
      expect(sink, 2 * expected)
    }, teardown: baseline.reset)
  }
}
