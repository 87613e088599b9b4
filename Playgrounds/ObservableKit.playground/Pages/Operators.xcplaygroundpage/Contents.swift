/*:
 [Previous: models](@previous)

 # Operators

 Events and properties share one set of operators: `map`, `filter`, `compactMap`,
 `removeDuplicates`, `skip`, `take`, `once` and `merge`. A chain holds no observers of its
 own: observing the end of a chain observes its source, and disposing that one
 subscription releases the whole chain.

 [Next: owner-bound observation](@next)
 */
import ObservableKit

example("filter, removeDuplicates and map") {
  let scores = ObservableEvent<Int>()
  let token = scores
    .filter { $0 > 1_000 }
    .removeDuplicates()
    .map { "new high score: \($0)" }
    .observe { print($0) }
  for score in [500, 1_200, 1_200, 800, 3_000] {
    scores.notifyObservers(score)
  }
  token.dispose()
  print("observers of the source after disposing the chain:", scores.observerCount)
}

example("compactMap") {
  let typed = ObservableEvent<String>()
  let token = typed.compactMap { Int($0) }.observe { print("a number:", $0) }
  for text in ["12", "twelve", "7"] {
    typed.notifyObservers(text)
  }
  token.dispose()
}

//: `take` and `once` end their own subscription when they are done, so nothing needs to be
//: disposed afterwards.
example("skip, take and once") {
  let ticks = ObservableEvent<Int>()
  let bag = DisposeBag()
  ticks.once().observe { print("once:", $0) }.disposed(by: bag)
  ticks.skip(1).take(2).observe { print("skip(1).take(2):", $0) }.disposed(by: bag)
  for tick in 1...5 {
    ticks.notifyObservers(tick)
  }
  print("observers left:", ticks.observerCount)
}

example("merge") {
  let keyboard = ObservableEvent<String>()
  let mouse = ObservableEvent<String>()
  let token = keyboard.merge(with: mouse).observe { print("input:", $0) }
  keyboard.notifyObservers("key A")
  mouse.notifyObservers("click")
  keyboard.notifyObservers("key B")
  token.dispose()
}

/*:
 On properties, `map`, `removeDuplicates` and `combineLatest` give a `ReadOnlyProperty`:
 it has a current value, replays it to new observers, and follows its sources.
 */
example("Derived properties") {
  let celsius = Property(20.0)
  let fahrenheit = celsius.map { $0 * 9 / 5 + 32 }
  print("fahrenheit now:", fahrenheit.value)

  let room = Property("Kitchen")
  let reading = room.combineLatest(fahrenheit)
  let token = reading.observe { room, degrees in
    print("\(room): \(degrees) °F")
  }
  celsius.value = 25
  room.value = "Hall"
  token.dispose()
}

example("removeDuplicates on a property") {
  let level = Property(1)
  let token = level.removeDuplicates().observe { print("level:", $0) }
  for value in [1, 2, 2, 3, 3, 3] {
    level.value = value
  }
  token.dispose()
}

/*:
 ## Compositions

 `scan` keeps a running result for each subscription, `pairwise` pairs each value with the
 one before it, `prepend` (Rx's `startWith`) gives each new observer some values first, and
 `withLatestFrom` reads a property each time a trigger fires. They return events.
 */
example("scan, pairwise and prepend") {
  let purchases = ObservableEvent<Int>()
  let bag = DisposeBag()
  purchases.scan(0) { total, price in total + price }.observe { print("total:", $0) }.disposed(by: bag)
  purchases.prepend(0).pairwise().observe { print("from \($0) to \($1)") }.disposed(by: bag)
  for price in [3, 5, 2] {
    purchases.notifyObservers(price)
  }
}

example("withLatestFrom") {
  let query = Property("")
  let searchTapped = ObservableEvent<Void>()
  let token = searchTapped.withLatestFrom(query).observe { print("search for", $0) }
  query.value = "swift"
  query.value = "swift observers"
  searchTapped.notifyObservers()
  token.dispose()
}

//: An array of events merges into one event; an array of properties combines into one
//: property of `[Value]`. Make sources of different kinds alike with `readOnly` or `map`.
example("merge and combineLatest over arrays") {
  let alerts = [ObservableEvent<String>(), ObservableEvent<String>(), ObservableEvent<String>()]
  let token = alerts.merge().observe { print("alert:", $0) }
  alerts[2].notifyObservers("disk full")
  alerts[0].notifyObservers("offline")
  token.dispose()

  let name = Property("")
  let agreed = Property(false)
  let canSubmit = [name.map { !$0.isEmpty }, agreed.readOnly].combineLatest().map { $0.allSatisfy { $0 } }
  let submitToken = canSubmit.observe { print("can submit:", $0) }
  name.value = "Ada"
  agreed.value = true
  submitToken.dispose()
}

/*:
 The shared family has the same operators with the same spellings; their closures are
 `@Sendable`. On a `SharedProperty`, `map`, `removeDuplicates` and `combineLatest` give a
 `SharedReadOnlyProperty`, which has a current value. `observeNonisolated` calls its
 handler on the notifying thread before the set returns, on every OS version, concurrently
 across threads (`observe` keeps the caller's isolation, one call at a time).
 */
example("The shared family") {
  let temperature = SharedProperty(20)
  let humidity = SharedProperty(40)
  let reading = temperature.combineLatest(humidity).map { "\($0) °C, \($1) %" }
  print("reading now:", reading.value)
  let bag = DisposeBag()
  reading.observeNonisolated { print("reading:", $0) }.disposed(by: bag)
  temperature.changes.merge(with: humidity.changes).skip(1).observeNonisolated { print("a later change:", $0) }
    .disposed(by: bag)
  temperature.value = 21
  humidity.value = 45
}

//: [Next: owner-bound observation](@next)
