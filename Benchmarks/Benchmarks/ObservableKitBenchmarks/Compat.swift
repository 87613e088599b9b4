// Scenario 6: the compatibility module (Flowduino Observable's API on ObservableKit).

import Benchmark
import BenchmarkSupport
import Observable
import OpenCombine

/// Scenario 6a: `withObservers` over 10 protocol observers. The unit is one delivery.
/// Scenario 6b: keyed notify over 1,000 keys with one observer each, one pass per key.
/// The unit is one keyed delivery.
///
/// OpenCombine has no protocol observers: its rows use a `PassthroughSubject` per source
/// (per key in 6b) whose sinks call the observer through a weak capture.
func registerCompat() {
  do {
    let observers = 10
    let notifies = deliveriesPerIteration / observers
    let scenario = "S6 withObservers 10 obs"
    let expected = observers * triangle(notifies)

    do {
      let state = Lazy { () -> (CompatSubject, Sink, [Counter]) in
        let subject = CompatSubject()
        let sink = Sink()
        let counters = (0..<observers).map { _ in Counter(sink) }
        for counter in counters { subject.addObserver(counter) }
        return (subject, sink, counters)
      }
      register(scenario, units: deliveriesPerIteration, .observableKit, closure: { _ in
        let (subject, sink, _) = state.value
        sink.total = 0
        subject.emit(0..<notifies)
        expect(sink, expected)
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (HandWrittenSubject, Sink, [Counter]) in
        let subject = HandWrittenSubject()
        let sink = Sink()
        let counters = (0..<observers).map { _ in Counter(sink) }
        for counter in counters { subject.add(counter) }
        return (subject, sink, counters)
      }
      register(scenario, units: deliveriesPerIteration, .baseline, closure: { _ in
        let (subject, sink, _) = state.value
        sink.total = 0
        subject.emit(0..<notifies)
        expect(sink, expected)
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (PassthroughSubject<Int, Never>, Sink, [Counter], [AnyCancellable]) in
        let subject = PassthroughSubject<Int, Never>()
        let sink = Sink()
        let counters = (0..<observers).map { _ in Counter(sink) }
        let cancellables = counters.map { counter in
          subject.sink { [weak counter] value in counter?.onValue(value) }
        }
        return (subject, sink, counters, cancellables)
      }
      register(scenario, units: deliveriesPerIteration, .openCombine, closure: { _ in
        let (subject, sink, _, _) = state.value
        sink.total = 0
        for value in 0..<notifies {
          subject.send(value)
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }
  }

  do {
    let keys = 1_000
    let scenario = "S6 keyed notify 1000 keys"
    let expected = triangle(keys)

    do {
      let state = Lazy { () -> (CompatKeyedSubject, Sink, [Counter]) in
        let subject = CompatKeyedSubject()
        let sink = Sink()
        let counters = (0..<keys).map { _ in Counter(sink) }
        for (key, counter) in counters.enumerated() { subject.addKeyedObserver(key: key, counter) }
        return (subject, sink, counters)
      }
      register(scenario, units: keys, .observableKit, closure: { _ in
        let (subject, sink, _) = state.value
        sink.total = 0
        subject.emit(keys: 0..<keys)
        expect(sink, expected)
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> (HandWrittenKeyedSubject, Sink, [Counter]) in
        let subject = HandWrittenKeyedSubject()
        let sink = Sink()
        let counters = (0..<keys).map { _ in Counter(sink) }
        for (key, counter) in counters.enumerated() { subject.add(key: key, counter) }
        return (subject, sink, counters)
      }
      register(scenario, units: keys, .baseline, closure: { _ in
        let (subject, sink, _) = state.value
        sink.total = 0
        subject.emit(keys: 0..<keys)
        expect(sink, expected)
      }, teardown: state.reset)
    }
    do {
      let state = Lazy { () -> ([Int: PassthroughSubject<Int, Never>], Sink, [Counter], [AnyCancellable]) in
        let sink = Sink()
        let counters = (0..<keys).map { _ in Counter(sink) }
        var subjects: [Int: PassthroughSubject<Int, Never>] = [:]
        var cancellables: [AnyCancellable] = []
        for (key, counter) in counters.enumerated() {
          let subject = PassthroughSubject<Int, Never>()
          cancellables.append(subject.sink { [weak counter] value in counter?.onValue(value) })
          subjects[key] = subject
        }
        return (subjects, sink, counters, cancellables)
      }
      register(scenario, units: keys, .openCombine, closure: { _ in
        let (subjects, sink, _, _) = state.value
        sink.total = 0
        for key in 0..<keys {
          subjects[key]?.send(key)
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }
  }
}
