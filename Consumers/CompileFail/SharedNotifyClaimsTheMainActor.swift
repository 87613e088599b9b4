// Nonisolated code that passes the main actor as the isolation of a shared notification:
// the main-actor handlers it reaches would run off the main actor, so the compiler refuses.
import ObservableKit

func notifyClaimingTheMainActor(_ event: SharedEvent<Int>) {
  event.notifyObservers(1, isolation: MainActor.shared)  // expected error: .*(main actor|MainActor|isolat|async).*
}
