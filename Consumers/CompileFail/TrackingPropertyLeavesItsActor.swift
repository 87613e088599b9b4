// A tracking property made on the main actor recomputes there and runs its handlers there:
// reading it or observing it from another domain would run the model's reads off the main
// actor, so the compiler refuses to let it leave.
import Observation
import ObservableKit

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor @Observable final class Person {
  var name = "Ada"
}

actor Logger {
  func watch(_ name: ReadOnlyProperty<String>) -> any Disposable {
    name.observe { print($0) }
  }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor func share(person: Person, logger: Logger) async {
  let name = ReadOnlyProperty(tracking: { person.name })
  Task.detached { print(name.value) }  // expected: data race
  _ = await logger.watch(name)  // expected: data race
}
