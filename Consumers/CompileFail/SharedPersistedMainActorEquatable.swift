// A store of your own that takes the default `isSameContent` compares with `==`, from
// whichever thread sets or reloads the property: an Equatable conformance isolated to the
// main actor cannot satisfy it (SE-0470). UserDefaults storage compares by JSON and uses no
// Equatable conformance, so there the same type persists, from anywhere.
import Foundation
import ObservableKit

@MainActor struct Layout: Sendable, nonisolated Codable { var columns = 2 }
extension Layout: @MainActor Equatable {}

struct MemoryStore: PropertyStorage { // expected error: type 'MemoryStore' does not conform to protocol 'PropertyStorage'
  let location = "memory"
  func load() -> StoredValue<Layout> { .absent }
  func save(_ value: Layout) throws {}
}

@MainActor func make() {
  let layout = SharedProperty(Layout(), storage: .userDefaults("layout"))
  Task.detached { layout.reloadFromStorage() }
}
