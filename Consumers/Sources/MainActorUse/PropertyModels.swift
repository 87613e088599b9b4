import ObservableKit

// A main-actor model declared with @Property, observed per property and as a whole by
// main-actor code: plain closures that touch main-actor state, no Sendable in sight.

@MainActor final class Game: PropertyModel {
  @Property var score = 0
  @Property var level = 1
}

/// A view model of the game: subscribes to the score's old and new values, bound to itself.
@MainActor final class GameViewModel {
  var scoreText = ""
  var changes: [String] = []
  let bag = DisposeBag()

  init(game: Game) {
    game.$score.observe { [weak self] in self?.scoreText = "score \($0)" }.disposed(by: bag)
    game.$score.subscribe(self) { viewModel, new, old in viewModel.changes.append("\(old) -> \(new)") }
  }
}

@MainActor func propertyModel() {
  let game = Game()
  let viewModel = GameViewModel(game: game)
  let bag = DisposeBag()
  var levels: [Int] = []
  var changed: [String] = []
  game.$level.observe { levels.append($0) }.disposed(by: bag)
  game.propertyChanges.observe { name in changed.append(name) }.disposed(by: bag)
  print("model after observe: \(viewModel.scoreText), levels \(levels), changed \(changed)")

  game.score += 10
  print("model after +=: \(viewModel.scoreText), score \(game.score), changed \(changed)")
  game.level = 2
  game.$score.modify { $0 += 5 }
  print("model after level and modify: \(viewModel.scoreText), levels \(levels), changed \(changed)")
  print("model score observers: \(game.$score.observerCount)")

  bag.dispose()
  game.level = 3
  game.score = 20
  print("model after bag dispose: levels \(levels), changed \(changed), score observers \(game.$score.observerCount)")
  print("model changes: \(viewModel.changes)")
}
