// A SharedProperty decodes its stored value on whichever thread sets or reloads it, so a
// Codable conformance isolated to the main actor cannot persist one: SE-0470 forbids using
// it where the value type must be Sendable. A confined Property of it compiles (it uses its
// store where it lives), and so does a nonisolated conformance.
import Foundation
import ObservableKit

@MainActor enum Theme: String { case system, dark }
extension Theme: @MainActor Codable {}

nonisolated enum Plain: String, Codable { case system, dark }

@MainActor func make() {
  let shared = SharedProperty(Theme.dark, storage: .userDefaults("theme")) // expected error: main actor-isolated conformance of 'Theme' to '(En|De)codable'
  _ = shared
  let confined = Property(Theme.dark, storage: .userDefaults("theme"))
  _ = confined
  let fine = SharedProperty(Plain.dark, storage: .userDefaults("plain"))
  Task.detached { fine.reloadFromStorage() }
}
