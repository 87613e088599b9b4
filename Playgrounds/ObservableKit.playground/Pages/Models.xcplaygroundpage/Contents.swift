/*:
 [Previous: properties](@previous)

 # Models

 A model class declares its values with `@Property`. One line gives two things: `score`,
 the value, which reads and sets like a stored property and notifies on every set; and
 `$score`, the `Property` behind it, with everything the previous page showed.

 [Next: operators](@next)
 */
import ObservableKit

final class Game: PropertyModel {
  @Property var score = 0
  @Property var level = 1
  /// Set every frame and read by no view: it skips the report to Swift Observation.
  @Property(observationTracking: false) var frameCount = 0
}

example("score is the value; $score is the property") {
  let game = Game()
  let bag = DisposeBag()
  game.$score.observe { print("score:", $0) }.disposed(by: bag)  // replays 0 at once
  game.score += 10
  game.score = 10  // every set notifies, even with an equal value
  print("read back:", game.score)
  print(game.$score)
}

/*:
 `$score` is a plain `Property`, so `subscribe`, `<~`, operators and owner-bound observation
 all work on it.
 */
final class Scoreboard {
  var lines: [String] = []
}

example("subscribe and operators through $score") {
  let game = Game()
  let scoreboard = Scoreboard()
  game.$score.subscribe(scoreboard) { scoreboard, newValue, oldValue in
    scoreboard.lines.append("\(oldValue) → \(newValue)")
  }
  let bag = DisposeBag()
  game.$level.map { "level \($0)" }.observe { print($0) }.disposed(by: bag)
  game.score = 25
  game.$score <~ 40
  game.level = 2
  print(scoreboard.lines)
}

/*:
 `game.score += 1` reads the value, then sets it: two steps. `modify` reads and writes in
 one atomic step, and notifies once. Inside one isolation domain, where Swift 6 keeps a
 `Property`, nothing can come between the two steps; `modify` matters where several threads
 may set the same property.
 */
example("+= and modify") {
  let game = Game()
  let token = game.$score.observeChanges { print("score:", $0) }
  game.score += 5
  game.$score.modify { $0 += 5 }
  token.dispose()
}

/*:
 `PropertyModel` adds one member, `propertyChanges`: an event that names the property set,
 for every set of every `Property` the model stores. It needs no macro and adds no stored
 property; the model's properties are found by reflection when `propertyChanges` is read.
 It is the place to save a model after any change or to mark it dirty.
 */
example("propertyChanges: one stream for the whole model") {
  let game = Game()
  let bag = DisposeBag()
  var dirty: Set<String> = []
  game.propertyChanges.observe { name in
    dirty.insert(name)
    print(name, "changed")
  }.disposed(by: bag)
  game.score += 10
  game.level = 2
  game.frameCount += 1  // untracked by Swift Observation, still a set
  print("to save:", dirty.sorted())
}

/*:
 A subclass's stream covers its superclass's properties too, superclasses first. A plain
 `let` of type `Property` counts as well, under its own name.
 */
class Match: PropertyModel {
  @Property var score = 0
}

final class RankedMatch: Match {
  let rank = Property("bronze")
}

example("Superclasses, and properties without the wrapper") {
  let match = RankedMatch()
  let bag = DisposeBag()
  match.propertyChanges.observe { print($0, "changed") }.disposed(by: bag)
  match.rank.value = "silver"
  match.score = 1
}

/*:
 `@Property` is for classes. In a struct it is a compile error: a struct is copied on
 assignment, but the `Property` inside is an object, so every copy would share one value and
 one list of observers, and setting a copy would notify the original's observers. In a
 struct, store the value itself.

     struct Settings {
       @Property var volume = 0.5  // error: 'wrappedValue' is unavailable
     }

 [Next: operators](@next)
 */
