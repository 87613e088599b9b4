#if canImport(Observation)
import Observation
import Observable
import Testing
import TestSupport

// A file that imports both Apple's Observation and this compatibility module, written with the
// spellings that the guide "Using Observable beside Observation or SwiftUI"
// (MigratingFromFlowduino.md) recommends. It passes by compiling without warnings and by the
// run-time checks below.
//
// What resolves to what here (Swift 6.3.1):
// - `@Observable` and `@Observation.Observable` are Observation's macro.
// - A bare `Observable` in a type position is this module's protocol: the compiler lets any
//   other module's declaration shadow one of Observation's.
// - `Observation.Observable` is Observation's protocol. `Observable.Observable` and
//   `Observable.ObservableClass` do not compile: `Observable.` finds the protocol, not the
//   module.
// - From Swift 6.3, module selectors name either one: `Observation::Observable`,
//   `Observable::Observable`.

/// A model spelled as the guide recommends.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observation.Observable
final class CoexistenceQualifiedModel {
  var score = 0
  var name = ""
}

/// The same model with the bare attribute, which also resolves to Observation's macro.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable
final class CoexistenceBareModel {
  var score = 0
  var name = ""
}

/// The observer protocol of the compatibility class below.
protocol CoexistenceScoreObserver: AnyObject {
  func scoreChanged(from oldValue: Int, to newValue: Int)
}

/// A Flowduino-style observable, in the same file.
final class CoexistenceGame: ObservableClass {
  private(set) var score = 0

  func add(points: Int) {
    let newScore = score + points
    withObservers { (observer: CoexistenceScoreObserver) in
      observer.scoreChanged(from: score, to: newScore)
    }
    score = newScore
  }
}

final class CoexistenceScoreboard: CoexistenceScoreObserver {
  var changes: [String] = []

  func scoreChanged(from oldValue: Int, to newValue: Int) {
    changes.append("\(oldValue) → \(newValue)")
  }
}

/// Takes only conformers of Observation's protocol.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
func observationModel(_ model: some Observation.Observable) -> any Observation.Observable {
  model
}

/// Takes only conformers of this module's protocol: the bare name means it here.
func compatObservable(_ observable: some Observable) -> any Observable {
  observable
}

#if compiler(>=6.3)
// Module selectors (SE-0491): accepted without a flag from Swift 6.3.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observation::Observable
final class CoexistenceSelectorModel {
  var score = 0
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
func observationModelBySelector(_ model: some Observation::Observable) -> any Observation::Observable {
  model
}

func compatObservableBySelector(_ observable: some Observable::Observable) -> any Observable::Observable {
  observable
}
#endif

@Suite("Observation beside Observable")
struct ObservationCoexistenceTests {
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("@Observation.Observable: withObservationTracking sees a change of a property once")
  func qualifiedMacroTracks() {
    let model = CoexistenceQualifiedModel()
    _ = observationModel(model)
    let changes = Tally()
    let read = withObservationTracking {
      model.score
    } onChange: {
      changes.increment()
    }
    #expect(read == 0)
    model.name = "untracked"
    #expect(changes.value == 0, "a property that was not read does not fire onChange")
    model.score = 1
    #expect(changes.value == 1)
    model.score = 2
    #expect(changes.value == 1, "onChange is one-shot")
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("A bare @Observable is Observation's macro, even with Observable imported")
  func bareMacroTracks() {
    let model = CoexistenceBareModel()
    _ = observationModel(model)
    let changes = Tally()
    _ = withObservationTracking {
      model.score
    } onChange: {
      changes.increment()
    }
    model.score = 1
    #expect(changes.value == 1)
    model.score = 2
    #expect(changes.value == 1, "onChange is one-shot")
  }

  @Test("A compat class works in the same file; bare Observable names its protocol")
  func compatClassWorks() {
    let game = CoexistenceGame()
    let scoreboard = CoexistenceScoreboard()
    game.addObserver(scoreboard)
    let observable: any Observable = compatObservable(game)
    game.add(points: 10)
    game.add(points: 5)
    #expect(scoreboard.changes == ["0 → 10", "10 → 15"])
    observable.removeObserver(scoreboard)
    game.add(points: 1)
    #expect(scoreboard.changes == ["0 → 10", "10 → 15"])
  }

  #if compiler(>=6.3)
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Module selectors name either protocol")
  func moduleSelectors() {
    let model = CoexistenceSelectorModel()
    _ = observationModelBySelector(model)
    let changes = Tally()
    _ = withObservationTracking { model.score } onChange: { changes.increment() }
    model.score = 1
    #expect(changes.value == 1)

    let game = CoexistenceGame()
    let scoreboard = CoexistenceScoreboard()
    let observable = compatObservableBySelector(game)
    observable.addObserver(scoreboard)
    game.add(points: 3)
    #expect(scoreboard.changes == ["0 → 3"])
  }
  #endif
}
#endif
