// A confined property captured by a @Sendable closure, which may run on any thread.
import ObservableKit

func bumpLater(_ volume: Property<Int>) -> @Sendable () -> Void {
  { volume.value += 1 }  // expected: data race
}
