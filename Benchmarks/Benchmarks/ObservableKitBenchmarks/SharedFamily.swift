// The shared family beside the confined one: SharedEvent with a nonisolated `observe`
// handler (which keeps the caller's isolation, so each call starts an immediate task) and
// with `observeNonisolated` (the plain fast path), plus churn and memory. The anchors are
// the same baseline and OpenCombine work as scenarios 1, 3a and 8.

import Benchmark
import BenchmarkSupport
import ObservableKit
import OpenCombine

func registerSharedFamily() {
  let notifies = deliveriesPerIteration
  let expected = triangle(notifies)

  for (scenario, subscribe) in [
    ("S1s SharedEvent notify 1 obs via observe", { (event: SharedEvent<Int>, sink: Sink) in event.observe(makeHandler(sink)) }),
    ("S1s SharedEvent notify 1 obs via observeNonisolated", { (event: SharedEvent<Int>, sink: Sink) in
      event.observeNonisolated(makeHandler(sink))
    }),
  ] {
    let state = Lazy { () -> (SharedEvent<Int>, Sink, any Disposable) in
      let event = SharedEvent<Int>()
      let sink = Sink()
      return (event, sink, subscribe(event, sink))
    }
    register(scenario, units: notifies, .observableKit, closure: { _ in
      let (event, sink, _) = state.value
      sink.total = 0
      for value in 0..<notifies { event.notifyObservers(value) }
      expect(sink, expected)
    }, teardown: state.reset)
    registerNotifyAnchors(scenario, observers: 1)
  }

  do {
    let scenario = "S3s SharedEvent churn create+observe+notify+dispose"
    let cycles = churnPerIteration
    let sink = Sink()
    register(scenario, units: cycles, .observableKit, closure: { _ in
      sink.total = 0
      for value in 0..<cycles {
        let event = SharedEvent<Int>()
        let token = event.observe(makeHandler(sink))
        event.notifyObservers(value)
        token.dispose()
      }
      expect(sink, triangle(cycles))
    })
    registerChurnAnchors(scenario, sink: sink)
  }

  do {
    let scenario = "S8s SharedEvent memory per live subscription"
    let count = 10_000
    let sink = Sink()
    register(scenario, units: count, .observableKit, maxIterations: 20, closure: { benchmark in
      let event = SharedEvent<Int>()
      var tokens: [any Disposable] = []
      tokens.reserveCapacity(count)
      benchmark.startMeasurement()
      for _ in 0..<count { tokens.append(event.observe(makeHandler(sink))) }
      benchmark.stopMeasurement()
      precondition(event.observerCount == count)
      for token in tokens { token.dispose() }
    })
    registerMemoryAnchors(scenario, count: count, sink: sink)
  }
}
