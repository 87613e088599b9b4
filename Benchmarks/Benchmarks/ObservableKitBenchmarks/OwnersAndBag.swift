// Owner-bound observation and the bag at the limit: owner churn in both families, heap bytes
// per live owner-bound subscription, and a bag filled from 100 sources. The baseline is the
// closure array with a `[weak owner]` closure (`makeWeakOwnerHandler`), OpenCombine a `sink`
// with the same closure.

import Benchmark
import BenchmarkSupport
import ObservableKit
import OpenCombine

func registerOwnersAndBag() {
  registerOwnerChurn()
  registerOwnerMemory()
  registerBagOverSources()
}

/// Scenario 3o: `ObservableEvent.observe(with:)` + `dispose()` against an event that has 10
/// plain observers, one owner for all. Scenario 3os: the same with `SharedEvent`'s owner form
/// (`observe(with:)`, a nonisolated handler) beside 10 `observeNonisolated` observers. The
/// unit is one observe + dispose pair.
private func registerOwnerChurn() {
  let cycles = churnPerIteration

  do {
    let scenario = "S3o owner churn observe(with:)+dispose with 10 obs"
    let state = Lazy { () -> (ObservableEvent<Int>, Sink, BenchOwner, [any Disposable]) in
      let event = ObservableEvent<Int>()
      let sink = Sink()
      return (event, sink, BenchOwner(), (0..<10).map { _ in event.observe(makeHandler(sink)) })
    }
    register(scenario, units: cycles, .observableKit, closure: { _ in
      let (event, sink, owner, _) = state.value
      for _ in 0..<cycles {
        event.observe(with: owner, makeOwnerHandler(sink)).dispose()
      }
      precondition(event.observerCount == 10)
    }, teardown: state.reset)
    registerOwnerChurnAnchors(scenario)
  }

  do {
    let scenario = "S3os SharedEvent owner churn observe(with:)+dispose with 10 obs"
    let state = Lazy { () -> (SharedEvent<Int>, Sink, BenchOwner, [any Disposable]) in
      let event = SharedEvent<Int>()
      let sink = Sink()
      return (event, sink, BenchOwner(), (0..<10).map { _ in event.observeNonisolated(makeHandler(sink)) })
    }
    register(scenario, units: cycles, .observableKit, closure: { _ in
      let (event, sink, owner, _) = state.value
      for _ in 0..<cycles {
        event.observe(with: owner, makeOwnerHandler(sink)).dispose()
      }
      precondition(event.observerCount == 10)
    }, teardown: state.reset)
    registerOwnerChurnAnchors(scenario)
  }
}

/// The baseline and OpenCombine rows of an owner churn scenario.
private func registerOwnerChurnAnchors(_ scenario: String) {
  let cycles = churnPerIteration
  do {
    let state = Lazy { () -> (BaselineEvent<Int>, Sink, BenchOwner) in
      let event = BaselineEvent<Int>()
      let sink = Sink()
      for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
      return (event, sink, BenchOwner())
    }
    register(scenario, units: cycles, .baseline, closure: { _ in
      let (event, sink, owner) = state.value
      for _ in 0..<cycles {
        event.remove(event.add(makeWeakOwnerHandler(owner, makeOwnerHandler(sink))))
      }
    }, teardown: state.reset)
  }
  do {
    let state = Lazy { () -> (PassthroughSubject<Int, Never>, Sink, BenchOwner, [AnyCancellable]) in
      let subject = PassthroughSubject<Int, Never>()
      let sink = Sink()
      return (subject, sink, BenchOwner(), (0..<10).map { _ in subject.sink(receiveValue: makeHandler(sink)) })
    }
    register(scenario, units: cycles, .openCombine, closure: { _ in
      let (subject, sink, owner, _) = state.value
      for _ in 0..<cycles {
        subject.sink(receiveValue: makeWeakOwnerHandler(owner, makeOwnerHandler(sink))).cancel()
      }
    }, teardown: state.reset)
  }
}

/// Scenario 8o: heap bytes per live owner-bound subscription, as scenario 8 measures them:
/// 10,000 owners (made before the measured region) each observe one event with
/// `observe(with:)`. The first weak reference to each owner (its side table) is in the region
/// for every contender.
private func registerOwnerMemory() {
  let count = 10_000
  let scenario = "S8o owner-bound memory per live subscription"
  let sink = Sink()

  register(scenario, units: count, .observableKit, maxIterations: 20, closure: { benchmark in
    let event = ObservableEvent<Int>()
    let owners = (0..<count).map { _ in BenchOwner() }
    var tokens: [any Disposable] = []
    tokens.reserveCapacity(count)
    benchmark.startMeasurement()
    for owner in owners { tokens.append(event.observe(with: owner, makeOwnerHandler(sink))) }
    benchmark.stopMeasurement()
    // Not `observerCount`, which loads every owner's weak reference: under the harness's
    // ARC hooks on Swift 6.3 (no runtime interposer, ordo-one/benchmark#349) that crashed.
    precondition(tokens.count == count)
    for token in tokens { token.dispose() }
    withExtendedLifetime(owners) {}
  })
  register(scenario, units: count, .baseline, maxIterations: 20, closure: { benchmark in
    let event = BaselineEvent<Int>()
    let owners = (0..<count).map { _ in BenchOwner() }
    var ids: [UInt64] = []
    ids.reserveCapacity(count)
    benchmark.startMeasurement()
    for owner in owners { ids.append(event.add(makeWeakOwnerHandler(owner, makeOwnerHandler(sink)))) }
    benchmark.stopMeasurement()
    blackHole(ids)
    withExtendedLifetime((event, owners)) {}
  })
  register(scenario, units: count, .openCombine, maxIterations: 20, closure: { benchmark in
    let subject = PassthroughSubject<Int, Never>()
    let owners = (0..<count).map { _ in BenchOwner() }
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(count)
    benchmark.startMeasurement()
    for owner in owners {
      cancellables.append(subject.sink(receiveValue: makeWeakOwnerHandler(owner, makeOwnerHandler(sink))))
    }
    benchmark.stopMeasurement()
    withExtendedLifetime((subject, owners)) {}
    cancellables.removeAll()
  })
}

/// Scenario 5m: one subscription on each of 100 events put in a `DisposeBag`, then the bag
/// disposed; ten bags per iteration. The unit is one entry. The baseline adds to 100 closure
/// arrays and then removes from them; OpenCombine stores in a `Set<AnyCancellable>`.
private func registerBagOverSources() {
  let sources = 100
  let bags = 10
  let scenario = "S5m DisposeBag fill+dispose over 100 sources"
  let sink = Sink()

  do {
    let events = Lazy { (0..<sources).map { _ in ObservableEvent<Int>() } }
    register(scenario, units: sources * bags, .observableKit, closure: { _ in
      let events = events.value
      for _ in 0..<bags {
        let bag = DisposeBag()
        for event in events { event.observe(makeHandler(sink)).disposeWith(bag) }
        bag.dispose()
      }
      precondition(!events[0].isObserved)
    }, teardown: events.reset)
  }
  do {
    let events = Lazy { (0..<sources).map { _ in BaselineEvent<Int>() } }
    register(scenario, units: sources * bags, .baseline, closure: { _ in
      let events = events.value
      for _ in 0..<bags {
        var ids = ContiguousArray<UInt64>()
        for event in events { ids.append(event.add(makeHandler(sink))) }
        for (event, id) in zip(events, ids) { event.remove(id) }
      }
    }, teardown: events.reset)
  }
  do {
    let subjects = Lazy { (0..<sources).map { _ in PassthroughSubject<Int, Never>() } }
    register(scenario, units: sources * bags, .openCombine, closure: { _ in
      let subjects = subjects.value
      for _ in 0..<bags {
        var cancellables = Set<AnyCancellable>()
        for subject in subjects { subject.sink(receiveValue: makeHandler(sink)).store(in: &cancellables) }
        cancellables.removeAll()
      }
    }, teardown: subjects.reset)
  }
}
