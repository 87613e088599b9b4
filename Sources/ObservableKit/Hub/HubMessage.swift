/// A kind of message an ``EventHub`` or ``SharedEventHub`` carries, declared once with the
/// type of its payload.
///
/// ```swift
/// enum PlayerMessages {
///   static let didStart = HubMessage<Track>("player.didStart")
///   static let didStop = HubMessage<Void>("player.didStop")
/// }
///
/// hub.post(PlayerMessages.didStart, track)          // takes a Track, nothing else
/// hub.observe(PlayerMessages.didStart) { track in … } // receives a Track, no cast
/// ```
///
/// A message is its name and its payload type together: two messages with the same name
/// and different payload types are different messages, so an observer can never receive
/// another message's payload, and a wrong payload type is a compile error. Two messages
/// with the same name and payload type are the same message, wherever they are declared,
/// as `Notification.Name`s are; a hub is yours to scope, so names need only be unique among
/// the messages of one hub. Debug builds print a warning when one name is declared with a
/// second payload type, since such messages never meet.
///
/// Declaring messages as `static let` members of a type of your own groups them and keeps
/// them discoverable. A computed `static var` in an extension also works, for leading-dot
/// syntax at the call site: `extension HubMessage where Payload == Track { static var
/// didStart: Self { Self("player.didStart") } }`.
///
/// In a module whose default isolation is the main actor (a new app's default), write
/// `nonisolated enum PlayerMessages` for messages posted or observed off the main actor: a
/// `HubMessage` is `Sendable`, but the members of a main-actor type can only be read on the
/// main actor.
public struct HubMessage<Payload>: Hashable, Sendable, CustomStringConvertible {
  /// The message's name, unique among the messages of one payload type.
  public let name: String

  /// Declares the message called `name`, carrying a `Payload`.
  public init(_ name: String) {
    self.name = name
    var hasher = Hasher()
    hasher.combine(name)
    hasher.combine(ObjectIdentifier(Payload.self))
    keyHash = hasher.finalize()
    #if DEBUG
    HubMessageNameCheck.register(name: name, payload: Payload.self)
    #endif
  }

  /// The hash of the channel key, computed once: a post hashes an `Int`, not the name.
  @usableFromInline let keyHash: Int

  /// The name and the payload type, as `player.didStart(Track)`.
  public var description: String { "\(name)(\(Payload.self))" }

  /// The key of this message's channel in a hub.
  @usableFromInline
  var channelKey: HubChannelKey {
    HubChannelKey(name: name, payload: ObjectIdentifier(Payload.self), hash: keyHash)
  }
}
