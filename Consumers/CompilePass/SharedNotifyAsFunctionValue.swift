// A shared event's notification as a function value, from main-actor and nonisolated code.
import ObservableKit

@MainActor func forwardOnTheMainActor(_ event: SharedEvent<Int>) -> (Int) -> Void {
  event.notifyObservers
}

func forward(_ event: SharedEvent<String>, to values: [String]) {
  values.forEach(event.notifyObservers)
}

@MainActor func notifyAVoidEvent(_ event: SharedEvent<Void>) {
  event.notifyObservers()
}

@MainActor func voidEventAsFunctionValue(_ event: SharedEvent<Void>) -> () -> Void {
  event.notifyObservers
}
