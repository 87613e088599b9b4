// Scenarios 12 and 13: the debounce hot path and a recorder, beside the locked closure array
// calling through a hand-written debouncer and appending to a locked array.

import Benchmark
import BenchmarkSupport
import ObservableKit
import ObservableKitTesting

/// The actor the shared debounce delivers on; the benchmark never reaches a deadline.
private actor DebounceTarget {}

/// Scenario 12: `S12 debounce arrival`: values arriving at a debounced subscription, each
/// moving the deadline (an hour away, so none fires during the benchmark). The unit is one
/// value. ObservableKit: a `SharedEvent<Int>` debounced on `ContinuousClock` with an explicit
/// actor (the benchmark's closures are nonisolated), observed with `observeNonisolated`; the
/// baseline: the locked closure array, whose handler pushes into a `HandDebouncer`. Both
/// read `ContinuousClock.now` once per value. The subscription (and its one task) is made on
/// the first iteration, outside the counts of the others.
func registerDebounce() {
  let values = deliveriesPerIteration
  let scenario = "S12 debounce arrival"
  let target = DebounceTarget()
  do {
    let state = Lazy { () -> (SharedEvent<Int>, Sink, any Disposable) in
      let event = SharedEvent<Int>()
      let sink = Sink()
      let token = event.debounce(for: .seconds(3600), isolation: target).observeNonisolated(makeHandler(sink))
      event.notifyObservers(0)  // starts the subscription's task
      return (event, sink, token)
    }
    register(scenario, units: values, .observableKit, closure: { _ in
      let (event, sink, _) = state.value
      for value in 0..<values { event.notifyObservers(value) }
      expect(sink, 0)
    }, teardown: {
      state.existing?.2.dispose()
      state.reset()
    })
  }
  do {
    let state = Lazy { () -> (BaselineEvent<Int>, Sink, HandDebouncer<Int>) in
      let event = BaselineEvent<Int>()
      let sink = Sink()
      let debouncer = HandDebouncer<Int>(duration: .seconds(3600), handler: makeHandler(sink))
      _ = event.add { debouncer.push($0) }
      event.notify(0)
      return (event, sink, debouncer)
    }
    register(scenario, units: values, .baseline, closure: { _ in
      let (event, sink, _) = state.value
      for value in 0..<values { event.notify(value) }
      expect(sink, 0)
    }, teardown: {
      state.existing?.2.cancel()
      state.reset()
    })
  }
}

/// Scenario 13: `S13 record`: an `ObservableEvent<Int>` recorded with `record()`, notified
/// with 10,000 values; the baseline: the locked closure array whose handler appends to a
/// locked array. The unit is one recorded value. Each iteration records into a new recorder,
/// made outside the measured region, so both grow their arrays from empty alike.
func registerRecorder() {
  let values = deliveriesPerIteration
  let scenario = "S13 record"
  register(scenario, units: values, .observableKit, closure: { benchmark in
    let event = ObservableEvent<Int>()
    let recorder = event.record()
    benchmark.startMeasurement()
    for value in 0..<values { event.notifyObservers(value) }
    benchmark.stopMeasurement()
    precondition(recorder.values.count == values)
  })
  register(scenario, units: values, .baseline, closure: { benchmark in
    let event = BaselineEvent<Int>()
    let recorder = HandRecorder<Int>()
    _ = event.add { recorder.append($0) }
    benchmark.startMeasurement()
    for value in 0..<values { event.notify(value) }
    benchmark.stopMeasurement()
    precondition(recorder.count == values)
  })
}
