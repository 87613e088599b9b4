// A SharedEventHub carries payloads to other domains: posting a payload that is not
// Sendable does not compile. A confined EventHub takes the same message and payload.
import ObservableKit

final class Track {
  var title = ""
}

enum PlayerMessages {
  static let didStart = HubMessage<Track>("player.didStart")
}

func post(_ track: Track, on hub: EventHub, and sharedHub: SharedEventHub) {
  hub.post(PlayerMessages.didStart, track)
  sharedHub.post(PlayerMessages.didStart, track)  // expected error: type 'Track' does not conform to the 'Sendable' protocol
}
