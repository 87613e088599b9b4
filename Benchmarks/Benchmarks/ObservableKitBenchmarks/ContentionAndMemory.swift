// Scenarios 7 and 8: two notifying threads, and heap bytes per live subscription.

import Benchmark
import BenchmarkSupport
import Dispatch
import ObservableKit
import OpenCombine

/// Scenario 7: two threads notify one event with 10 observers at the same time, each
/// `notifiesPerThread` times per iteration. The unit is one delivery; the time is wall clock
/// from the start of both threads until both finish. The handlers share their sink across
/// both threads, so they contend on it the same way for every contender.
func registerContended() {
  let observers = 10
  let notifiesPerThread = 1_000
  let units = 2 * notifiesPerThread * observers
  let scenario = "S7 contended 2 threads 10 obs"

  // The bodies capture a subject that is not declared Sendable; OpenCombine's subjects are
  // thread-safe, and the other two contenders are Sendable.
  func runOnTwoThreads(_ body: (Int) -> Void) {
    withoutActuallyEscaping(body) { body in
      nonisolated(unsafe) let body = body
      DispatchQueue.concurrentPerform(iterations: 2) { thread in
        body(thread)
      }
    }
  }

  do {
    let state = Lazy { () -> (ObservableEvent<Int>, Sink, [any Disposable]) in
      let event = ObservableEvent<Int>()
      let sink = Sink()
      return (event, sink, (0..<observers).map { _ in event.observe(makeHandler(sink)) })
    }
    register(scenario, units: units, .observableKit, closure: { _ in
      let (event, sink, _) = state.value
      runOnTwoThreads { _ in
        for value in 0..<notifiesPerThread { event.notifyObservers(value) }
      }
      blackHole(sink.total)
    }, teardown: state.reset)
  }
  do {
    let state = Lazy { () -> (BaselineEvent<Int>, Sink) in
      let event = BaselineEvent<Int>()
      let sink = Sink()
      for _ in 0..<observers { _ = event.add(makeHandler(sink)) }
      return (event, sink)
    }
    register(scenario, units: units, .baseline, closure: { _ in
      let (event, sink) = state.value
      runOnTwoThreads { _ in
        for value in 0..<notifiesPerThread { event.notify(value) }
      }
      blackHole(sink.total)
    }, teardown: state.reset)
  }
  do {
    let state = Lazy { () -> (PassthroughSubject<Int, Never>, Sink, [AnyCancellable]) in
      let subject = PassthroughSubject<Int, Never>()
      let sink = Sink()
      return (subject, sink, (0..<observers).map { _ in subject.sink(receiveValue: makeHandler(sink)) })
    }
    register(scenario, units: units, .openCombine, closure: { _ in
      let (subject, sink, _) = state.value
      runOnTwoThreads { _ in
        for value in 0..<notifiesPerThread { subject.send(value) }
      }
      blackHole(sink.total)
    }, teardown: state.reset)
  }
}

/// Scenario 8: heap bytes per live subscription. The measured region makes `count`
/// subscriptions on a fresh event and keeps them alive; the figure is the interposer's
/// requested bytes allocated minus freed in that region (`memoryLeakedBytes`) per
/// subscription. It counts the handler's closure context, the library's subscription
/// objects, the returned token and the growth of the source's storage; it does not count
/// the caller's array of tokens (reserved before the region) or allocator overhead.
func registerMemory() {
  let count = 10_000
  let scenario = "S8 memory per live subscription"
  let sink = Sink()

  register(scenario, units: count, .observableKit, maxIterations: 20, closure: { benchmark in
    let event = ObservableEvent<Int>()
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

/// The baseline and OpenCombine rows of a memory scenario like 8.
func registerMemoryAnchors(_ scenario: String, count: Int, sink: Sink) {
  register(scenario, units: count, .baseline, maxIterations: 20, closure: { benchmark in
    let event = BaselineEvent<Int>()
    var ids: [UInt64] = []
    ids.reserveCapacity(count)
    benchmark.startMeasurement()
    for _ in 0..<count { ids.append(event.add(makeHandler(sink))) }
    benchmark.stopMeasurement()
    blackHole(ids)
    withExtendedLifetime(event) {}
  })

  register(scenario, units: count, .openCombine, maxIterations: 20, closure: { benchmark in
    let subject = PassthroughSubject<Int, Never>()
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(count)
    benchmark.startMeasurement()
    for _ in 0..<count { cancellables.append(subject.sink(receiveValue: makeHandler(sink))) }
    benchmark.stopMeasurement()
    withExtendedLifetime(subject) {}
    cancellables.removeAll()
  })
}

/// Scenario 9: heap bytes of an idle model with 50 properties, none read or observed. The
/// figure is per model: the interposer's requested bytes allocated minus freed while 100
/// models are made and kept.
func registerIdleModel() {
  let models = 100
  let properties = 50
  let scenario = "S9 idle model with 50 properties"

  register(scenario, units: models, .observableKit, maxIterations: 20, closure: { benchmark in
    var kept: [[Property<Int>]] = []
    kept.reserveCapacity(models)
    benchmark.startMeasurement()
    for _ in 0..<models { kept.append((0..<properties).map { Property($0) }) }
    benchmark.stopMeasurement()
    blackHole(kept.count)
  })
  register(scenario, units: models, .baseline, maxIterations: 20, closure: { benchmark in
    var kept: [[BaselineProperty<Int>]] = []
    kept.reserveCapacity(models)
    benchmark.startMeasurement()
    for _ in 0..<models { kept.append((0..<properties).map { BaselineProperty($0) }) }
    benchmark.stopMeasurement()
    blackHole(kept.count)
  })
  register(scenario, units: models, .openCombine, maxIterations: 20, closure: { benchmark in
    var kept: [[CurrentValueSubject<Int, Never>]] = []
    kept.reserveCapacity(models)
    benchmark.startMeasurement()
    for _ in 0..<models { kept.append((0..<properties).map { CurrentValueSubject($0) }) }
    benchmark.stopMeasurement()
    blackHole(kept.count)
  })
}
