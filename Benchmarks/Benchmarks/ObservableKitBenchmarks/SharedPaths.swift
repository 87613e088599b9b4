// The shared family as main-actor and actor code writes it: `observe { }` registered on the
// main actor and notified there (S14), a burst of values hopping from a background thread to
// a main-actor or actor-isolated handler (S15), shared churn (S16) and the bytes of a live
// main-actor subscription (S17). The anchors are the closure array of scenarios 1, 3b and 8,
// OpenCombine, and for the hops one `DispatchQueue.main.async` (S15) or one `Task` (S15t) per
// value, and one serial-queue `async` per value (S15a).
//
// The runner calls benchmark closures off the main thread: `onMain` runs the measured loop of
// the main-actor rows on the main thread, once per iteration.

import Benchmark
import BenchmarkSupport
import Dispatch
import Foundation
import ObservableKit
import OpenCombine

/// Runs `body` on the main actor, from the thread of a benchmark closure.
private func onMain<T: Sendable>(_ body: @MainActor () -> T) -> T {
  if Thread.isMainThread { return MainActor.assumeIsolated(body) }
  return DispatchQueue.main.sync { MainActor.assumeIsolated(body) }
}

/// What the README leads main-actor code to write: a closure that inherits the main actor.
@MainActor
private func observeOnMainActor(_ event: SharedEvent<Int>, _ sink: Sink) -> any Disposable {
  event.observe { value in sink.slot.pointee &+= value }
}

/// The burst's handler on the main actor: adds, and tells when the last value has run (one
/// subscription's calls keep the order of the notifications).
@MainActor
private func observeBurstOnMainActor(_ event: SharedEvent<Int>, _ sink: Sink, _ arrival: Arrival, last: Int) -> any Disposable {
  event.observe { value in
    sink.slot.pointee &+= value
    if value == last { arrival.arrive() }
  }
}

/// An actor whose `observe { }` handler is isolated to it.
private actor Accumulator {
  let sink: Sink
  let arrival: Arrival
  let last: Int
  var token: (any Disposable)?
  init(_ sink: Sink, _ arrival: Arrival, last: Int) {
    self.sink = sink
    self.arrival = arrival
    self.last = last
  }
  func observe(_ event: SharedEvent<Int>) {
    token = event.observe { value in
      self.sink.slot.pointee &+= value
      if value == self.last { self.arrival.arrive() }
    }
  }
  func dispose() { token?.dispose() }
}

/// The tokens of the memory row, reserved before the measured region.
private final class Tokens: @unchecked Sendable {
  // Touched by one thread at a time: the benchmark closure, or the main thread inside
  // `onMain`, which the closure waits for.
  var tokens: [any Disposable] = []
}

/// Signals once the sink's total reaches a value; the handlers run where they run, the
/// waiting benchmark closure resumes when the last one has.
private final class Arrival: @unchecked Sendable {
  // `lock` guards `continuation`.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, Never>?

  func wait(_ start: () -> Void) async {
    await withCheckedContinuation { continuation in
      lock.lock()
      self.continuation = continuation
      lock.unlock()
      start()
    }
  }

  func arrive() {
    lock.lock()
    let continuation = self.continuation
    self.continuation = nil
    lock.unlock()
    continuation?.resume()
  }
}

/// Registers an async benchmark named like `register` does.
private func registerAsync(_ scenario: String, units: Int, _ contender: Contender, closure: @escaping @Sendable (Benchmark) async -> Void) {
  let countsOnly = getenv("BENCHMARK_COUNTS_ONLY") != nil
  Benchmark(
    String("\(scenario) x\(units) \(contender.rawValue)".map { $0 == " " ? "_" : $0 }),
    configuration: .init(
      metrics: suiteMetrics,
      timeUnits: .nanoseconds,
      units: Dictionary((suiteMetrics + checkedMetrics).map { ($0, BenchmarkUnits.count) }, uniquingKeysWith: { a, _ in a }),
      warmupIterations: 1,
      scalingFactor: .one,
      maxDuration: .seconds(2),
      maxIterations: countsOnly ? 5 : 15
    ),
    closure: closure
  )
}

func registerSharedPaths() {
  // S14: notify on the main actor, handler registered there with `observe { }`.
  do {
    let scenario = "S14 shared notify 1 obs via observe on the main actor"
    let notifies = deliveriesPerIteration
    let expected = triangle(notifies)
    let state = Lazy { () -> (SharedEvent<Int>, Sink, any Disposable) in
      let event = SharedEvent<Int>()
      let sink = Sink()
      return (event, sink, onMain { observeOnMainActor(event, sink) })
    }
    register(scenario, units: notifies, .observableKit, closure: { _ in
      let (event, sink, _) = state.value
      sink.total = 0
      onMain {
        for value in 0..<notifies { event.notifyObservers(value) }
      }
      expect(sink, expected)
    }, teardown: state.reset)
    registerNotifyAnchors(scenario, observers: 1)
  }

  // S15: a burst from a background thread to a main-actor handler, until the last has run.
  let burst = 100_000
  let burstTotal = triangle(burst)
  for scenario in ["S15 hop burst to the main actor", "S15t hop burst to the main actor"] {
    registerAsync(scenario, units: burst, .observableKit) { _ in
      let event = SharedEvent<Int>()
      let sink = Sink()
      let arrival = Arrival()
      let token = onMain { observeBurstOnMainActor(event, sink, arrival, last: burst - 1) }
      await arrival.wait {
        Thread.detachNewThread { for value in 0..<burst { event.notifyObservers(value) } }
      }
      precondition(sink.total == burstTotal)
      token.dispose()
    }
  }
  registerAsync("S15 hop burst to the main actor", units: burst, .baseline) { _ in
    let sink = Sink()
    let arrival = Arrival()
    await arrival.wait {
      Thread.detachNewThread {
        for value in 0..<burst {
          DispatchQueue.main.async {
            sink.slot.pointee &+= value
            if value == burst - 1 { arrival.arrive() }
          }
        }
      }
    }
    precondition(sink.total == burstTotal)
  }
  registerAsync("S15t hop burst to the main actor", units: burst, .baseline) { _ in
    let sink = Sink()
    let arrival = Arrival()
    await arrival.wait {
      Thread.detachNewThread {
        for value in 0..<burst {
          Task { @MainActor in
            sink.slot.pointee &+= value
            if sink.total == burstTotal { arrival.arrive() }
          }
        }
      }
    }
  }

  // S15a: the same burst to a handler isolated to an actor.
  registerAsync("S15a hop burst to an actor", units: burst, .observableKit) { _ in
    let event = SharedEvent<Int>()
    let sink = Sink()
    let arrival = Arrival()
    let accumulator = Accumulator(sink, arrival, last: burst - 1)
    await accumulator.observe(event)
    await arrival.wait {
      Thread.detachNewThread { for value in 0..<burst { event.notifyObservers(value) } }
    }
    precondition(sink.total == burstTotal)
    await accumulator.dispose()
  }
  registerAsync("S15a hop burst to an actor", units: burst, .baseline) { _ in
    let sink = Sink()
    let arrival = Arrival()
    let queue = DispatchQueue(label: "S15a.baseline")
    await arrival.wait {
      Thread.detachNewThread {
        for value in 0..<burst {
          queue.async {
            sink.slot.pointee &+= value
            if value == burst - 1 { arrival.arrive() }
          }
        }
      }
    }
    precondition(sink.total == burstTotal)
  }

  // S16: observe + dispose on the main actor, 10 others registered.
  do {
    let scenario = "S16 shared churn observe+dispose with 10 obs on the main actor"
    let cycles = churnPerIteration
    let state = Lazy { () -> (SharedEvent<Int>, Sink, [any Disposable]) in
      let event = SharedEvent<Int>()
      let sink = Sink()
      return (event, sink, onMain { (0..<10).map { _ in observeOnMainActor(event, sink) } })
    }
    register(scenario, units: cycles, .observableKit, closure: { _ in
      let (event, sink, _) = state.value
      onMain {
        for _ in 0..<cycles { observeOnMainActor(event, sink).dispose() }
      }
      precondition(event.observerCount == 10)
    }, teardown: state.reset)
    do {
      let state = Lazy { () -> (BaselineEvent<Int>, Sink) in
        let event = BaselineEvent<Int>()
        let sink = Sink()
        for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
        return (event, sink)
      }
      register(scenario, units: cycles, .baseline, closure: { _ in
        let (event, sink) = state.value
        for _ in 0..<cycles { event.remove(event.add(makeHandler(sink))) }
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
        for _ in 0..<cycles { subject.sink(receiveValue: makeHandler(sink)).cancel() }
      }, teardown: state.reset)
    }
  }

  // S17: heap bytes per live `observe { }` subscription registered on the main actor.
  do {
    let scenario = "S17 shared memory per live subscription via observe on the main actor"
    let count = 10_000
    let sink = Sink()
    register(scenario, units: count, .observableKit, maxIterations: 20, closure: { benchmark in
      let event = SharedEvent<Int>()
      let box = Tokens()
      box.tokens.reserveCapacity(count)
      benchmark.startMeasurement()
      onMain {
        for _ in 0..<count { box.tokens.append(observeOnMainActor(event, sink)) }
      }
      benchmark.stopMeasurement()
      precondition(event.observerCount == count)
      for token in box.tokens { token.dispose() }
    })
    registerMemoryAnchors(scenario, count: count, sink: sink)
  }
}
