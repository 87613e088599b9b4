import Foundation
import Testing
import TestSupport

import ObservableKit

/// The examples of the seed documents, as written there except for plain typos
/// (`notififyObservers`, `diposeWith`, `var score: Property(0)`, `scoreChangeEvent` for
/// `scoreChangedEvent`).
@Suite("Seed examples")
struct SeedExampleTests {
  @Test("Seed 002: typed, tuple and Void events, dispose, DisposeBag")
  func observableEventReadme() {
    let log = ValueLog<String>()

    let scoreChangedEvent = ObservableEvent<Int>()
    let scoreDisposable = scoreChangedEvent.observe { score in
      log.record("score \(score)")
    }
    scoreChangedEvent.notifyObservers(1000)
    scoreDisposable.dispose()
    scoreChangedEvent.notifyObservers(2000)

    let highScoreEvent = ObservableEvent<(score: Int, isHighScore: Bool)>()
    let myEvent = ObservableEvent<Void>()
    do {
      let bag = DisposeBag()
      highScoreEvent.observe { score, isHighScore in
        log.record("tuple \(score) \(isHighScore)")
      }.disposeWith(bag)
      myEvent.observe {
        log.record("void")
      }.disposeWith(bag)
      highScoreEvent.notifyObservers((score: 25, isHighScore: false))
      myEvent.notifyObservers()
    }
    // The bag was released: its contents were disposed.
    highScoreEvent.notifyObservers((score: 30, isHighScore: true))
    myEvent.notifyObservers()

    #expect(log.values == ["score 1000", "tuple 25 false", "void"])
  }

  @Test("Seed 002: Property replaces a didSet + event pair and replays its value")
  func propertyReadme() {
    let log = ValueLog<Int>()
    let bag = DisposeBag()
    let score = Property(0)
    let currentScore = score.value
    score.observe { score in
      log.record(score)
    }.disposeWith(bag)
    score.value = currentScore + 100
    #expect(log.values == [0, 100])
    bag.dispose()
    score.value = 5
    #expect(log.values == [0, 100])
  }

  @Test("Seed 001: subscribe(self) with (newValue, oldValue), the <~ operator")
  func observableBlogPost() {
    final class PreferencesController {
      let configuredPort = Guarded(0)
      let port = Property(8000)

      func viewDidLoad() {
        port.subscribe(self) { [configuredPort] port, _ in
          // Ignore the old value, but update the config with the new one.
          configuredPort.value = port
        }
      }

      func portTextFieldDidUpdate(value: Int) {
        port <~ value
      }
    }
    let controller = PreferencesController()
    controller.viewDidLoad()
    controller.portTextFieldDidUpdate(value: 8080)
    #expect(controller.configuredPort.value == 8080)

    // The opening example: a value mirrored by a subscription.
    let initial = 3
    let v = Guarded(initial)
    let obs = Property(initial)
    obs.subscribe(controller) { newValue, oldValue in
      v.value = newValue
    }
    obs.value = 4  // Trigger update.
    #expect(v.value == 4)
    obs.unsubscribe(controller)
    obs.value = 5
    #expect(v.value == 4)
  }
}
