// A confined event sent into a detached task while this function goes on using it and the
// state its handler changes.
import ObservableKit

func notifyFromDetachedTask() {
  let event = ObservableEvent<Int>()
  var total = 0
  let token = event.observe { total += $0 }
  Task.detached { event.notifyObservers(1) }  // expected: data race
  event.notifyObservers(2)
  print(total)
  token.dispose()
}
