/*:
 [Previous: events](@previous)

 # Dispose bags and lifetimes

 A subscription lasts until you dispose its `Disposable`, or until its source goes away.
 A `DisposeBag` collects disposables and disposes all of them at once: when you call
 `dispose()`, or when the bag itself deinitializes. Give an object a bag, and its
 subscriptions end with it.

 [Next: properties](@next)
 */
import ObservableKit

//: `disposeWith(_:)` is ObservableEvent's spelling; `disposed(by:)` is RxSwift's. They do
//: the same thing.
example("A bag ends every subscription in it") {
  let scoreChanged = ObservableEvent<Int>()
  let gameOver = ObservableEvent<Void>()
  let bag = DisposeBag()
  scoreChanged.observe { print("score:", $0) }.disposeWith(bag)
  gameOver.observe { print("game over") }.disposed(by: bag)
  print(bag)

  scoreChanged.notifyObservers(10)
  bag.dispose()
  scoreChanged.notifyObservers(20)  // nobody hears this one
  gameOver.notifyObservers()  // nor this one
  print(bag, "- observers left:", scoreChanged.observerCount + gameOver.observerCount)
}

//: An object that keeps its subscriptions in its own bag ends them when it deinitializes.
final class ScoreBoard {
  private let bag = DisposeBag()

  init(scores: ObservableEvent<Int>) {
    scores.observe { print("the board shows", $0) }.disposed(by: bag)
  }

  deinit {
    print("the board deinitializes, and its bag with it")
  }
}

example("A bag disposes its contents when it deinitializes") {
  let scores = ObservableEvent<Int>()
  withExtendedLifetime(ScoreBoard(scores: scores)) {
    scores.notifyObservers(1)
    print("observers while the board lives:", scores.observerCount)
  }
  scores.notifyObservers(2)  // the board is gone
  print("observers after:", scores.observerCount)
}

/*:
 Dropping a disposable does **not** end its subscription: it lives as long as its source.
 That is why the compiler warns when you ignore the result of `observe`. Write `_ =` to say
 that the subscription should live as long as the source.
 */
example("Dropping a disposable") {
  let ticks = ObservableEvent<Int>()
  _ = ticks.observe { print("still listening:", $0) }
  ticks.notifyObservers(1)
  print("observers:", ticks.observerCount)
}

//: When the source deinitializes, its subscriptions end, and their disposables say so.
example("The source goes away") {
  var token: (any Disposable)?
  withExtendedLifetime(ObservableEvent<Int>()) { ticks in
    token = ticks.observe { _ in }
    print("disposed while the event lives:", token!.isDisposed)
  }
  print("disposed after the event has gone:", token!.isDisposed)
}

/*:
 Disposing releases the handler at once, and with it whatever the handler captured: here a
 `Resource` that reports its own deinit.
 */
final class Resource {
  deinit {
    print("the resource the handler captured is released")
  }
}

example("Disposing releases what the handler captured") {
  let ticks = ObservableEvent<Int>()
  let token = ticks.observe { [resource = Resource()] _ in
    _ = resource
  }
  print("disposing")
  token.dispose()
  print("disposed; disposing again does nothing")
  token.dispose()
}

//: Disposing a bag is final: whatever you add later is disposed at once.
example("A disposed bag") {
  let ticks = ObservableEvent<Int>()
  let bag = DisposeBag()
  bag.dispose()
  let token = ticks.observe { print("never printed:", $0) }
  token.disposed(by: bag)
  ticks.notifyObservers(1)
  print("token disposed:", token.isDisposed, "- bag:", bag)
}

//: A handler may end its own subscription; the pass in progress does not call it again.
example("A handler that disposes itself") {
  let ticks = ObservableEvent<Int>()
  var token: (any Disposable)?
  token = ticks.observe { tick in
    print("heard", tick, "- and that is enough")
    token?.dispose()
  }
  ticks.notifyObservers(1)
  ticks.notifyObservers(2)
  print("observers:", ticks.observerCount)
}

/*:
 In debug builds, `Diagnostics.liveSubscriptionCount` counts the subscriptions alive in the
 whole process (it stays 0 in release builds, where `Diagnostics.isCountingSubscriptions` is
 false), so a test can check that a screen leaves none behind.
 */
example("Counting live subscriptions") {
  let before = Diagnostics.liveSubscriptionCount
  do {
    let bag = DisposeBag()
    let ticks = ObservableEvent<Int>()
    ticks.observe { _ in }.disposed(by: bag)
    ticks.map { $0 * 2 }.observe { _ in }.disposed(by: bag)
    print("subscriptions added:", Diagnostics.liveSubscriptionCount - before)
  }
  print("left behind once the bag has gone:", Diagnostics.liveSubscriptionCount - before)
}

//: [Next: properties](@next)
