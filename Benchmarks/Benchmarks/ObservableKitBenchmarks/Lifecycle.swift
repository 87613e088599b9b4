// Scenarios 3, 4 and 5: subscription churn, teardown scaling and DisposeBag.

import Benchmark
import BenchmarkSupport
import ObservableKit
import OpenCombine

/// Churn units per iteration.
let churnPerIteration = 1_000

/// Scenario 3a: create an event, observe, notify once, dispose. The unit is one such cycle.
/// Scenario 3b: observe + dispose against an event that already has 10 observers. The unit
/// is one observe + dispose pair.
func registerChurn() {
  let cycles = churnPerIteration
  let expected = triangle(cycles)

  do {
    let scenario = "S3a churn create+observe+notify+dispose"
    let sink = Sink()
    register(scenario, units: cycles, .observableKit, closure: { _ in
      sink.total = 0
      for value in 0..<cycles {
        let event = ObservableEvent<Int>()
        let token = event.observe(makeHandler(sink))
        event.notifyObservers(value)
        token.dispose()
      }
      expect(sink, expected)
    })
    registerChurnAnchors(scenario, sink: sink)
  }

  do {
    let scenario = "S3b churn observe+dispose with 10 obs"
    do {
      let state = Lazy { () -> (ObservableEvent<Int>, Sink, [any Disposable]) in
        let event = ObservableEvent<Int>()
        let sink = Sink()
        return (event, sink, (0..<10).map { _ in event.observe(makeHandler(sink)) })
      }
      register(scenario, units: cycles, .observableKit, closure: { _ in
        let (event, sink, _) = state.value
        for _ in 0..<cycles {
          let token = event.observe(makeHandler(sink))
          token.dispose()
        }
        precondition(event.observerCount == 10)
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
          let id = event.add(makeHandler(sink))
          event.remove(id)
        }
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (PassthroughSubject<Int, Never>, Sink, [AnyCancellable]) in
        let subject = PassthroughSubject<Int, Never>()
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
}

/// Scenario 4: dispose 10k and 100k subscriptions of one event in a random order (the same
/// order for every contender). Building them is outside the measured region. The unit is one
/// disposal; a flat time per unit from 10k to 100k means O(1) disposal.
func registerTeardown() {
  for count in [10_000, 100_000] {
    let scenario = "S4 teardown \(count / 1_000)k random order"
    let order = Lazy { shuffledIndices(count) }
    let sink = Sink()
    // The baseline scans and shifts its array on each removal: O(n) per disposal, so its
    // 100k run takes seconds per iteration; it gets fewer iterations.
    let slow = count >= 100_000

    register(scenario, units: count, .observableKit, warmupIterations: 1, maxIterations: slow ? 12 : 60, closure: { benchmark in
      let event = ObservableEvent<Int>()
      var tokens: [any Disposable] = []
      tokens.reserveCapacity(count)
      for _ in 0..<count { tokens.append(event.observe(makeHandler(sink))) }
      let order = order.value
      benchmark.startMeasurement()
      for index in order {
        tokens[index].dispose()
      }
      benchmark.stopMeasurement()
      precondition(!event.isObserved)
    }, teardown: order.reset)

    register(scenario, units: count, .baseline, warmupIterations: slow ? 0 : 1, maxIterations: slow ? 2 : 20, closure: { benchmark in
      let event = BaselineEvent<Int>()
      var ids: [UInt64] = []
      ids.reserveCapacity(count)
      for _ in 0..<count { ids.append(event.add(makeHandler(sink))) }
      let order = order.value
      benchmark.startMeasurement()
      for index in order {
        event.remove(ids[index])
      }
      benchmark.stopMeasurement()
    }, teardown: order.reset)

    register(scenario, units: count, .openCombine, warmupIterations: slow ? 0 : 1, maxIterations: slow ? 2 : 20, closure: { benchmark in
      let subject = PassthroughSubject<Int, Never>()
      var cancellables: [AnyCancellable] = []
      cancellables.reserveCapacity(count)
      for _ in 0..<count { cancellables.append(subject.sink(receiveValue: makeHandler(sink))) }
      let order = order.value
      benchmark.startMeasurement()
      for index in order {
        cancellables[index].cancel()
      }
      benchmark.stopMeasurement()
    }, teardown: order.reset)
  }
}

/// Scenario 5: a `DisposeBag` with 1,000 entries, filled and disposed, on one event that has
/// no other observers. The unit is one entry (observe + add to the bag + its disposal).
///
/// The baseline has no bag: it keeps the ids in a local array and removes them in the order
/// added. OpenCombine uses the idiomatic `store(in: &Set<AnyCancellable>)`.
func registerDisposeBag() {
  let entries = 1_000
  let scenario = "S5 DisposeBag fill+dispose"
  let sink = Sink()

  do {
    let event = Lazy { ObservableEvent<Int>() }
    register(scenario, units: entries, .observableKit, closure: { _ in
      let event = event.value
      let bag = DisposeBag()
      for _ in 0..<entries {
        event.observe(makeHandler(sink)).disposeWith(bag)
      }
      bag.dispose()
      precondition(!event.isObserved)
    }, teardown: event.reset)
  }
  do {
    let event = Lazy { BaselineEvent<Int>() }
    register(scenario, units: entries, .baseline, closure: { _ in
      let event = event.value
      var ids = ContiguousArray<UInt64>()
      for _ in 0..<entries {
        ids.append(event.add(makeHandler(sink)))
      }
      for id in ids {
        event.remove(id)
      }
    }, teardown: event.reset)
  }
  do {
    let subject = Lazy { PassthroughSubject<Int, Never>() }
    register(scenario, units: entries, .openCombine, closure: { _ in
      let subject = subject.value
      var cancellables = Set<AnyCancellable>()
      for _ in 0..<entries {
        subject.sink(receiveValue: makeHandler(sink)).store(in: &cancellables)
      }
      cancellables.removeAll()
    }, teardown: subject.reset)
  }
}

/// The baseline and OpenCombine rows of a churn scenario like 3a.
func registerChurnAnchors(_ scenario: String, sink: Sink) {
  let cycles = churnPerIteration
  let expected = triangle(cycles)
  register(scenario, units: cycles, .baseline, closure: { _ in
    sink.total = 0
    for value in 0..<cycles {
      let event = BaselineEvent<Int>()
      let id = event.add(makeHandler(sink))
      event.notify(value)
      event.remove(id)
    }
    expect(sink, expected)
  })
  register(scenario, units: cycles, .openCombine, closure: { _ in
    sink.total = 0
    for value in 0..<cycles {
      let subject = PassthroughSubject<Int, Never>()
      let cancellable = subject.sink(receiveValue: makeHandler(sink))
      subject.send(value)
      cancellable.cancel()
    }
    expect(sink, expected)
  })
}
