// compile-flags: -default-isolation MainActor -enable-upcoming-feature InferIsolatedConformances
// In a module whose default isolation is the main actor, a plain struct's Codable
// conformance is main-actor isolated: a SharedProperty of it would decode it off the main
// actor, at a reload from a detached task. It does not compile; `nonisolated` on the
// conformance makes it work from anywhere.
import Foundation
import ObservableKit

struct Layout: Codable, Equatable { var columns = 2 }
struct Free: nonisolated Codable, nonisolated Equatable { var columns = 2 }

func make() {
  let layout = SharedProperty(Layout(), storage: .userDefaults("layout")) // expected error: main actor-isolated conformance of 'Layout' to '(En|De)codable'
  Task.detached { layout.reloadFromStorage() }
  let free = SharedProperty(Free(), storage: .userDefaults("free"))
  Task.detached { free.reloadFromStorage() }
}
