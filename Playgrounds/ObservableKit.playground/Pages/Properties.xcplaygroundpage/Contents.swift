/*:
 [Previous: dispose bags and lifetimes](@previous)

 # Properties

 A `Property<T>` holds a value and notifies its observers every time it is set. `observe`
 first calls the new handler with the current value, so an observer never has to read the
 value separately to get started.

 [Next: models](@next)
 */
import ObservableKit

example("observe: the current value at once, then every set") {
  let score = Property(0)
  let bag = DisposeBag()
  score.observe { print("score:", $0) }.disposed(by: bag)
  score.value = score.value + 100
  score.value = 100  // every set notifies, even with an equal value
  print(score)
}

/*:
 `subscribe(_:block:)` is the spelling of the classic `Observable<T>` blog post: the block
 receives the new and the old value, it is not called with the current value, and it is
 bound to an observer object, held weakly. `unsubscribe` ends every subscription of that
 object. `<~` sets the value.
 */
final class PortField {}

example("subscribe, unsubscribe and <~") {
  let port = Property(8000)
  let field = PortField()
  port.subscribe(field) { newValue, oldValue in
    print("port changed from \(oldValue) to \(newValue)")
  }
  port <~ 8080  // the same as port.value = 8080
  port <~ 8443
  port.unsubscribe(field)
  port <~ 9000  // nobody hears this one
  print("observers:", port.observerCount)
}

//: A subscription made with `subscribe` ends when its observer deinitializes.
example("subscribe lasts as long as the observer") {
  let volume = Property(5)
  withExtendedLifetime(PortField()) { observer in
    volume.subscribe(observer) { newValue, _ in print("volume:", newValue) }
    volume <~ 6
    print("observers while the observer lives:", volume.observerCount)
  }
  volume <~ 7  // the observer is gone: nothing is delivered
  print("observers after:", volume.observerCount)
}

//: A block with three parameters receives the observer too, so it needs no `[weak self]`.
final class PortLog {
  var lines: [String] = []
}

example("subscribe with the observer passed in") {
  let port = Property(8000)
  let log = PortLog()
  port.subscribe(log) { log, newValue, oldValue in
    log.lines.append("\(oldValue) → \(newValue)")
  }
  port <~ 8080
  port <~ 8443
  print(log.lines)
}

/*:
 `observeChanges` is `observe` without the first call. `modify` changes the value in place
 and notifies once, as a set does.
 */
example("observeChanges and modify") {
  let counter = Property(0)
  let token = counter.observeChanges { print("counter:", $0) }
  counter.modify { $0 += 1 }
  counter.modify { $0 += 10 }
  print("value:", counter.value)
  token.dispose()
}

//: A model keeps its `Property` private and shows others a `ReadOnlyProperty`: they can
//: read and observe it, but not set it.
final class Player {
  private let _volume = Property(0.5)
  var volume: ReadOnlyProperty<Double> { _volume.readOnly }

  func louder() {
    _volume.modify { $0 = min(1, $0 + 0.25) }
  }
}

example("A read-only view") {
  let player = Player()
  let token = player.volume.observe { print("volume:", $0) }
  player.louder()
  player.louder()
  player.louder()  // already at 1.0, and still a set
  token.dispose()
}

/*:
 A handler may set the property it observes. The new value is readable at once, and its
 delivery waits until every handler has heard the current one, so all observers see the
 same sequence and end on the final value.
 */
example("A set from inside a handler") {
  let temperature = Property(18)
  let bag = DisposeBag()
  temperature.observe { degrees in
    print("thermostat sees \(degrees)")
    if degrees < 20 { temperature.value = 20 }
  }.disposed(by: bag)
  temperature.observe { print("display sees", $0) }.disposed(by: bag)
  print("setting 15")
  temperature.value = 15
  print("final value:", temperature.value)
}

//: [Next: models](@next)
