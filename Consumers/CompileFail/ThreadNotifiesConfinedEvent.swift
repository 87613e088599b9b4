// A confined event handed to another thread: its handler changes a local var, which the
// thread would then race with.
import Foundation
import ObservableKit

func countOnAnotherThread() {
  let event = ObservableEvent<Int>()
  var total = 0
  let token = event.observe { total += $0 }
  Thread.detachNewThread { event.notifyObservers(1) }  // expected: data race
  print(total)
  token.dispose()
}
