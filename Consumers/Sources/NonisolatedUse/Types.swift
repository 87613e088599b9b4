import ObservableKit

// Plain, non-Sendable classes, as a model and its views are in code without actors.

final class Label {
  var text = ""
}

final class GameModel {
  let score = Property(0)
  let scoreChangedEvent = ObservableEvent<Int>()
}

/// The README's HUD: a plain class that a handler updates.
final class HUD {
  var lastScore = 0
}

/// Keeps what it hears, with `[weak self]`.
final class HistoryRecorder {
  var history: [Int] = []
  let bag = DisposeBag()

  init(event: ObservableEvent<Int>) {
    event.observe { [weak self] in self?.history.append($0) }.disposed(by: bag)
  }
}

/// Subscribes in the classic blog-post spelling, both forms.
final class Scoreboard {
  var lines: [String] = []

  init(score: Property<Int>) {
    // Captures self strongly: the property holds the block until it is released.
    score.subscribe(self) { new, old in self.lines.append("\(old) -> \(new)") }
    score.subscribe(self) { owner, new, old in owner.lines.append("owner saw \(old) -> \(new)") }
  }
}
