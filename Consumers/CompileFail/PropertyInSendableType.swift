// A confined property stored in a type that claims to be Sendable.
import ObservableKit

struct Settings: Sendable {
  let volume = Property(5)  // expected: data race
}
