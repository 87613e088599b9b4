// A tracking property recomputes on the actor that made it. Nonisolated code has none, so
// making one there is a compile error rather than recomputes on whatever thread changed
// the model.
import Observation
import ObservableKit

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class Person {
  var name = "Ada"
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
nonisolated func makeName(person: Person) -> ReadOnlyProperty<String> {
  ReadOnlyProperty(tracking: { person.name })  // expected error: actor-isolated initializer .* in a synchronous nonisolated context
}
