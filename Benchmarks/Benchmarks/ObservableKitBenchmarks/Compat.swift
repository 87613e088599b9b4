// Scenario 6: the compatibility module (Flowduino Observable's API on ObservableKit).

import Benchmark
import Observable
import OpenCombine

/// The observer protocol of the compat scenarios.
protocol IntObserver: AnyObject {
  func onValue(_ value: Int)
}

/// An observer object doing the common handler's work.
final class Counter: IntObserver, @unchecked Sendable {
  let sink: Sink

  init(_ sink: Sink) {
    self.sink = sink
  }

  func onValue(_ value: Int) {
    sink.slot.pointee &+= value
  }
}

/// A Flowduino-style observable object on the compat layer.
final class CompatSubject: ObservableClass {
  func emit(_ value: Int) {
    withObservers { (observer: IntObserver) in
      observer.onValue(value)
    }
  }
}

/// A Flowduino-style keyed observable object on the compat layer.
final class CompatKeyedSubject: KeyedObservableClass<Int> {
  func emit(key: Int) {
    withKeyedObservers(key: key) { (key: Int, observer: IntObserver) in
      observer.onValue(key)
    }
  }
}

/// The hand-written loop the compat layer is measured against: weak boxes in an array, each
/// observer cast with `as?`. Not thread-safe, like Flowduino's `ObservableClass`.
struct WeakBox {
  weak var object: AnyObject?
}

final class HandWrittenSubject {
  var boxes: ContiguousArray<WeakBox> = []

  func add(_ observer: AnyObject) {
    boxes.append(WeakBox(object: observer))
  }

  func emit(_ value: Int) {
    for box in boxes {
      if let observer = box.object as? IntObserver {
        observer.onValue(value)
      }
    }
  }
}

final class HandWrittenKeyedSubject {
  var boxes: [Int: ContiguousArray<WeakBox>] = [:]

  func add(key: Int, _ observer: AnyObject) {
    boxes[key, default: []].append(WeakBox(object: observer))
  }

  func emit(key: Int) {
    guard let list = boxes[key] else { return }
    for box in list {
      if let observer = box.object as? IntObserver {
        observer.onValue(key)
      }
    }
  }
}

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
        for value in 0..<notifies {
          subject.emit(value)
        }
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
        for value in 0..<notifies {
          subject.emit(value)
        }
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
        for key in 0..<keys {
          subject.emit(key: key)
        }
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
        for key in 0..<keys {
          subject.emit(key: key)
        }
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
