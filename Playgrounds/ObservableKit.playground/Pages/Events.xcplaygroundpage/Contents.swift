/*:
 # Events

 An `ObservableEvent<T>` calls its observers' handlers each time you notify it. `T` is
 whatever the event carries: an `Int`, a tuple of several values, or `Void` for nothing.

 `observe` returns a `Disposable`: dispose it when you no longer want to hear from the
 event. The next page shows how a `DisposeBag` does that for you.

 An `ObservableEvent` stays where it was made (here, on the page's main actor), so its
 handlers are plain closures that may change your local variables. To share an event across
 threads, use a `SharedEvent`: see the Threads page.

 [Next: dispose bags and lifetimes](@next)
 */
import ObservableKit

example("A typed event") {
  let scoreChanged = ObservableEvent<Int>()
  let token = scoreChanged.observe { score in
    print("score changed to", score)
  }
  scoreChanged.notifyObservers(1000)
  token.dispose()
  scoreChanged.notifyObservers(2000)  // nobody hears this one
  print("observers left:", scoreChanged.observerCount)
}

//: A tuple event carries several values at once; a closure with one parameter per element
//: takes it apart.
example("A tuple event") {
  let scored = ObservableEvent<(score: Int, isHighScore: Bool)>()
  let token = scored.observe { score, isHighScore in
    print(isHighScore ? "\(score), a new high score!" : "\(score)")
  }
  scored.notifyObservers((score: 25, isHighScore: false))
  scored.notifyObservers((score: 9000, isHighScore: true))
  token.dispose()
}

//: A `Void` event says only that something happened.
example("A Void event") {
  let gameOver = ObservableEvent<Void>()
  let token = gameOver.observe {
    print("game over")
  }
  gameOver.notifyObservers()
  token.dispose()
}

//: Handlers run synchronously, on the thread that notifies, in the order they were
//: registered. `notifyObservers` returns after the last one.
example("Order") {
  let tick = ObservableEvent<Int>()
  let first = tick.observe { print("first handler hears", $0) }
  let second = tick.observe { print("second handler hears", $0) }
  tick.notifyObservers(1)
  print("notifyObservers has returned;", tick)
  first.dispose()
  second.dispose()
}

/*:
 A handler may notify the event that is calling it. The new value does not interrupt the
 pass in progress: it is queued and delivered once every handler has heard the current one,
 so all handlers hear the values in the same order.
 */
example("Notifying from inside a handler") {
  let countdown = ObservableEvent<Int>()
  let announcer = countdown.observe { count in
    print("announcer hears", count)
    if count > 0 { countdown.notifyObservers(count - 1) }
  }
  let display = countdown.observe { count in
    print("display hears", count)
  }
  countdown.notifyObservers(2)
  announcer.dispose()
  display.dispose()
}

//: A handler registered from inside a handler first hears the next notification.
example("Observing from inside a handler") {
  let ticks = ObservableEvent<Int>()
  var late: (any Disposable)?
  let early = ticks.observe { tick in
    print("early handler hears", tick)
    if late == nil {
      late = ticks.observe { print("late handler hears", $0) }
    }
  }
  ticks.notifyObservers(1)
  ticks.notifyObservers(2)
  early.dispose()
  late?.dispose()
}

//: [Next: dispose bags and lifetimes](@next)
