// Scenarios 3p and 8p: what a property subscription costs to make, end and keep, beside the
// closure array (the baseline of scenarios 3b and 8) and OpenCombine's CurrentValueSubject.

import Benchmark
import BenchmarkSupport
import ObservableKit
import OpenCombine

/// Scenario 3p: observe with the replay + dispose against a property that already has 10
/// observers. The unit is one observe + dispose pair. The baseline adds a handler to the
/// closure array, calls it with the current value (the replay) and removes it; OpenCombine's
/// `CurrentValueSubject.sink` replays too.
///
/// Scenarios 8p and 8ps: heap bytes per live subscription of a `Property` and of a
/// `SharedProperty` (through `observeNonisolated`, the family's synchronous path; `observe`
/// from nonisolated code adds the isolated delivery of scenario 1s), measured as scenario 8.
func registerPropertySubscriptions() {
  let cycles = churnPerIteration

  do {
    let scenario = "S3p property churn observe+dispose with 10 obs"
    do {
      let state = Lazy { () -> (Property<Int>, Sink, [any Disposable]) in
        let property = Property(1)
        let sink = Sink()
        return (property, sink, (0..<10).map { _ in property.observe(makeHandler(sink)) })
      }
      register(scenario, units: cycles, .observableKit, closure: { _ in
        let (property, sink, _) = state.value
        for _ in 0..<cycles {
          let token = property.observe(makeHandler(sink))
          token.dispose()
        }
        precondition(property.observerCount == 10)
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (BaselineEvent<Int>, Sink) in
        let event = BaselineEvent<Int>()
        let sink = Sink()
        for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
        return (event, sink)
      }
      register(scenario, units: cycles, .baseline, closure: { _ in
        let (event, sink) = state.value
        for _ in 0..<cycles {
          let handler = makeHandler(sink)
          let id = event.add(handler)
          handler(1)
          event.remove(id)
        }
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (CurrentValueSubject<Int, Never>, Sink, [AnyCancellable]) in
        let subject = CurrentValueSubject<Int, Never>(1)
        let sink = Sink()
        return (subject, sink, (0..<10).map { _ in subject.sink(receiveValue: makeHandler(sink)) })
      }
      register(scenario, units: cycles, .openCombine, closure: { _ in
        let (subject, sink, _) = state.value
        for _ in 0..<cycles {
          let cancellable = subject.sink(receiveValue: makeHandler(sink))
          cancellable.cancel()
        }
      }, teardown: state.reset)
    }
  }

  let count = 10_000
  do {
    let scenario = "S8p Property memory per live subscription"
    let sink = Sink()
    register(scenario, units: count, .observableKit, maxIterations: 20, closure: { benchmark in
      let property = Property(0)
      var tokens: [any Disposable] = []
      tokens.reserveCapacity(count)
      benchmark.startMeasurement()
      for _ in 0..<count { tokens.append(property.observe(makeHandler(sink))) }
      benchmark.stopMeasurement()
      precondition(property.observerCount == count)
      for token in tokens { token.dispose() }
    })
    registerMemoryAnchors(scenario, count: count, sink: sink)
  }
  do {
    let scenario = "S8ps SharedProperty memory per live subscription"
    let sink = Sink()
    register(scenario, units: count, .observableKit, maxIterations: 20, closure: { benchmark in
      let property = SharedProperty(0)
      var tokens: [any Disposable] = []
      tokens.reserveCapacity(count)
      benchmark.startMeasurement()
      for _ in 0..<count { tokens.append(property.observeNonisolated(makeHandler(sink))) }
      benchmark.stopMeasurement()
      precondition(property.observerCount == count)
      for token in tokens { token.dispose() }
    })
    registerMemoryAnchors(scenario, count: count, sink: sink)
  }
}
