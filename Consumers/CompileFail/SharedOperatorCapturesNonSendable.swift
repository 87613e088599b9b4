// The shared family's operator closures run on whatever thread notifies, so they are
// @Sendable: a scan or map that captures a non-Sendable object does not compile. The same
// closures on a confined event are plain closures and compile.
import ObservableKit

final class History {
  var entries: [Int] = []
}

func record(_ history: History, _ event: ObservableEvent<Int>, _ shared: SharedEvent<Int>) -> [any Disposable] {
  [
    event.scan(0) { total, value in history.entries.append(value); return total + value }.observe { _ in },
    shared.scan(0) { total, value in history.entries.append(value); return total + value }.observe { _ in },  // expected: data race
    shared.withLatestFrom(SharedProperty(0)) { value, _ in history.entries.count + value }.observe { _ in },  // expected: data race
  ]
}
