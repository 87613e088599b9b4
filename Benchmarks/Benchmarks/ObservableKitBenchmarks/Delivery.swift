// Scenarios 1 and 2: notify an event and set a property, per delivered event.

import Benchmark
import BenchmarkSupport
import ObservableKit
import OpenCombine

/// Deliveries per iteration in scenarios 1 and 2.
let deliveriesPerIteration = 10_000

/// Scenario 1: notify with 1, 10 and 1,000 observers. The unit is one delivery (one handler
/// call); the allocation count per iteration covers `deliveriesPerIteration / observers`
/// notifications.
func registerNotify() {
  for observers in [1, 10, 1_000] {
    let notifies = deliveriesPerIteration / observers
    let scenario = "S1 notify \(observers) obs"
    let expected = observers * triangle(notifies)

    do {
      let state = Lazy { () -> (ObservableEvent<Int>, Sink, [any Disposable]) in
        let event = ObservableEvent<Int>()
        let sink = Sink()
        let tokens = (0..<observers).map { _ in event.observe(makeHandler(sink)) }
        return (event, sink, tokens)
      }
      register(scenario, units: deliveriesPerIteration, .observableKit, closure: { _ in
        let (event, sink, _) = state.value
        sink.total = 0
        for value in 0..<notifies {
          event.notifyObservers(value)
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }

    registerNotifyAnchors(scenario, observers: observers)
  }
}

/// The baseline and OpenCombine rows of a notify scenario with `observers` observers; the
/// baseline alone if `openCombine` is false (scenario 11, whose peer is NotificationCenter).
func registerNotifyAnchors(_ scenario: String, observers: Int, openCombine: Bool = true) {
  let notifies = deliveriesPerIteration / observers
  let expected = observers * triangle(notifies)
  do {
    let state = Lazy { () -> (BaselineEvent<Int>, Sink) in
      let event = BaselineEvent<Int>()
      let sink = Sink()
      for _ in 0..<observers { _ = event.add(makeHandler(sink)) }
      return (event, sink)
    }
    register(scenario, units: deliveriesPerIteration, .baseline, closure: { _ in
      let (event, sink) = state.value
      sink.total = 0
      for value in 0..<notifies {
        event.notify(value)
      }
      expect(sink, expected)
    }, teardown: state.reset)
  }

  if openCombine {
    let state = Lazy { () -> (PassthroughSubject<Int, Never>, Sink, [AnyCancellable]) in
      let subject = PassthroughSubject<Int, Never>()
      let sink = Sink()
      let cancellables = (0..<observers).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
      return (subject, sink, cancellables)
    }
    register(scenario, units: deliveriesPerIteration, .openCombine, closure: { _ in
      let (subject, sink, _) = state.value
      sink.total = 0
      for value in 0..<notifies {
        subject.send(value)
      }
      expect(sink, expected)
    }, teardown: state.reset)
  }
}

/// Scenario 2: `Property` set with 1 and 10 observers. The unit is one delivery.
///
/// A property reports its sets to Swift Observation by default; the `no Observation` rows
/// measure `Property(_:observationTracking: false)`, to show what that reporting costs. The
/// baseline and OpenCombine do the same work in both rows.
func registerPropertySet() {
  for (observers, observationTracking) in [(1, true), (10, true), (1, false), (10, false)] {
    let sets = deliveriesPerIteration / observers
    let scenario = "S2 property set \(observers) obs" + (observationTracking ? "" : " no Observation")
    let expected = observers * triangle(sets)

    do {
      let state = Lazy { () -> (Property<Int>, Sink, [any Disposable]) in
        let property = Property(0, observationTracking: observationTracking)
        let sink = Sink()
        let tokens = (0..<observers).map { _ in property.observe(makeHandler(sink)) }
        return (property, sink, tokens)
      }
      register(scenario, units: deliveriesPerIteration, .observableKit, closure: { _ in
        let (property, sink, _) = state.value
        sink.total = 0
        for value in 0..<sets {
          property.value = value
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }

    do {
      let state = Lazy { () -> (BaselineProperty<Int>, Sink) in
        let property = BaselineProperty(0)
        let sink = Sink()
        for _ in 0..<observers { property.add(makeHandler(sink)) }
        return (property, sink)
      }
      register(scenario, units: deliveriesPerIteration, .baseline, closure: { _ in
        let (property, sink) = state.value
        sink.total = 0
        for value in 0..<sets {
          property.value = value
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }

    do {
      let state = Lazy { () -> (CurrentValueSubject<Int, Never>, Sink, [AnyCancellable]) in
        let subject = CurrentValueSubject<Int, Never>(0)
        let sink = Sink()
        let cancellables = (0..<observers).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
        return (subject, sink, cancellables)
      }
      register(scenario, units: deliveriesPerIteration, .openCombine, closure: { _ in
        let (subject, sink, _) = state.value
        sink.total = 0
        for value in 0..<sets {
          subject.value = value
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }
  }
}
