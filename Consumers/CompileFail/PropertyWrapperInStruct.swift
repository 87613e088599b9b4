// @Property in a struct: every copy of the struct would share one Property and its
// observers, so the wrapper is for classes only.
import ObservableKit

struct Settings {
  @Property var volume = 5  // expected error: only available on properties of classes
}
