// Scenarios 10 and 11: the `@Property` wrapper on a model class beside a stored `Property`,
// and `EventHub` beside a private `NotificationCenter`. Both keep the locked-array baseline.

import Benchmark
import BenchmarkSupport
import Foundation
import ObservableKit

/// Scenario 10: a model class of 50 `@Property var pN = 0` beside the same model with 50
/// stored `let pN = Property(0)` (the StoredProperty contender) and with 50 stored baseline
/// properties (the models are in Support/Models50.swift). The wrapper should cost no more than
/// a stored `Property`.
///
/// - `S10 idle wrapped model 50 properties`: heap bytes per model, as in scenario 9 (whose
///   "model" is an array of 50 properties): requested bytes allocated minus freed while 100
///   models are made and kept.
/// - `S10 wrapped property set 1 obs`: `model.p0 = value` with one observer, beside
///   `model.p0.value = value`; the unit is one delivery. Reported to Swift Observation, as in
///   `S2 property set 1 obs`; the `no Observation` row declares the properties with
///   `observationTracking: false`. The baseline does the same work in both rows.
func registerWrappedModel() {
  do {
    let models = 100
    let scenario = "S10 idle wrapped model 50 properties"
    func idle<Model>(_ contender: Contender, _ make: @escaping () -> Model) {
      register(scenario, units: models, contender, maxIterations: 20, closure: { benchmark in
        var kept: [Model] = []
        kept.reserveCapacity(models)
        benchmark.startMeasurement()
        for _ in 0..<models { kept.append(make()) }
        benchmark.stopMeasurement()
        blackHole(kept.count)
      })
    }
    idle(.observableKit) { WrappedModel50() }
    idle(.storedProperty) { StoredModel50() }
    idle(.baseline) { BaselineModel50() }
  }

  let sets = deliveriesPerIteration
  let expected = triangle(sets)
  for observationTracking in [true, false] {
    let scenario = "S10 wrapped property set 1 obs" + (observationTracking ? "" : " no Observation")

    /// One model with one observer of `p0`; `observe` makes the subscription, `set` runs the
    /// loop of Support/Models.swift.
    func row<Model>(
      _ contender: Contender,
      _ make: @escaping () -> Model,
      observe: @escaping (Model, Sink) -> (any Disposable)?,
      set: @escaping (Model, Range<Int>) -> Void
    ) {
      let state = Lazy { () -> (Model, Sink, (any Disposable)?) in
        let model = make()
        let sink = Sink()
        return (model, sink, observe(model, sink))
      }
      register(scenario, units: sets, contender, closure: { _ in
        let (model, sink, _) = state.value
        sink.total = 0
        set(model, 0..<sets)
        expect(sink, expected)
      }, teardown: state.reset)
    }

    if observationTracking {
      row(.observableKit, WrappedModel50.init, observe: { $0.$p0.observe(makeHandler($1)) }, set: setWrapped)
      row(.storedProperty, StoredModel50.init, observe: { $0.p0.observe(makeHandler($1)) }, set: setStored)
    } else {
      row(.observableKit, WrappedModel50NoObservation.init, observe: { $0.$p0.observe(makeHandler($1)) }, set: setWrapped)
      row(.storedProperty, StoredModel50NoObservation.init, observe: { $0.p0.observe(makeHandler($1)) }, set: setStored)
    }
    row(.baseline, BaselineModel50.init, observe: { observeP0($0, $1); return nil }, set: setBaseline)
  }
}

/// Scenario 11: `EventHub.post` to 1 and 10 observers of one message, beside a private
/// `NotificationCenter` (observers added with `addObserver(forName:object:queue: nil,
/// using:)`, removed by the benchmark's teardown) and the locked-array baseline. The unit is
/// one delivery (one handler call).
///
/// - The payload is an `Int`. The hub's handlers receive it typed; NotificationCenter has no
///   typed payload, so it is posted in `userInfo` (`post(name:object:userInfo:)`) and the
///   handler casts it back, as an app would. The `no payload` row posts a `HubMessage<Void>`
///   beside `post(name:object:)`, each handler adding 1.
/// - `from sender`: every observer is registered `from: sender` (NotificationCenter:
///   `object: sender`) and every post is made from that sender, so all of them hear it. The
///   baseline has no filter: it is the plain closure array of the other rows.
func registerHub() {
  // Local constants, as an app's `static let` would be once initialized.
  let benchmarkValue = HubMessage<Int>("benchmark.value")
  let benchmarkPing = HubMessage<Void>("benchmark.ping")

  for (observers, filtered, payload) in [(1, false, true), (10, false, true), (10, true, true), (1, false, false)] {
    let posts = deliveriesPerIteration / observers
    let scenario = "S11 hub post \(observers) obs" + (filtered ? " from sender" : "") + (payload ? "" : " no payload")
    let expected = observers * (payload ? triangle(posts) : posts)
    let sender: Sender? = filtered ? Sender() : nil

    do {
      let state = Lazy { () -> (EventHub, Sink, [any Disposable]) in
        let hub = EventHub()
        let sink = Sink()
        let tokens = (0..<observers).map { _ in
          payload
            ? hub.observe(benchmarkValue, from: sender, makeHandler(sink))
            : hub.observe(benchmarkPing, from: sender, makeCounter(sink))
        }
        return (hub, sink, tokens)
      }
      register(scenario, units: deliveriesPerIteration, .observableKit, closure: { _ in
        let (hub, sink, _) = state.value
        sink.total = 0
        if payload {
          for value in 0..<posts { hub.post(benchmarkValue, value, from: sender) }
        } else {
          for _ in 0..<posts { hub.post(benchmarkPing, from: sender) }
        }
        expect(sink, expected)
      }, teardown: state.reset)
    }

    do {
      let name = Notification.Name("benchmark.value")
      let state = Lazy { () -> (NotificationCenter, Sink, [any NSObjectProtocol]) in
        let center = NotificationCenter()
        let sink = Sink()
        let tokens = (0..<observers).map { _ in
          center.addObserver(
            forName: name, object: sender, queue: nil,
            using: payload ? makeNotificationHandler(sink) : makeNotificationCounter(sink)
          )
        }
        return (center, sink, tokens)
      }
      register(scenario, units: deliveriesPerIteration, .notificationCenter, closure: { _ in
        let (center, sink, _) = state.value
        sink.total = 0
        if payload {
          for value in 0..<posts { center.post(name: name, object: sender, userInfo: [notificationValueKey: value]) }
        } else {
          for _ in 0..<posts { center.post(name: name, object: sender) }
        }
        expect(sink, expected)
      }, teardown: {
        // Remove the observers before the center goes: the center is private, but an observer
        // left behind is the leak NotificationCenter is known for.
        if let (center, _, tokens) = state.existing {
          for token in tokens { center.removeObserver(token) }
        }
        state.reset()
      })
    }

    // The baseline: the locked closure array of scenario 1, with no sender filter.
    if payload {
      registerNotifyAnchors(scenario, observers: observers, openCombine: false)
    } else {
      let state = Lazy { () -> (BaselineEvent<Void>, Sink) in
        let sink = Sink()
        return (makeVoidBaseline(observers: observers, sink), sink)
      }
      register(scenario, units: deliveriesPerIteration, .baseline, closure: { _ in
        let (event, sink) = state.value
        sink.total = 0
        notifyVoid(event, posts)
        expect(sink, expected)
      }, teardown: state.reset)
    }
  }
}
