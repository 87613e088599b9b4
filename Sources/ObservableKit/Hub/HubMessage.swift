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
/// `Sendable` is part of the payload type: `HubMessage<[String: Any]>("userInfo")` and
/// `HubMessage<[String: any Sendable]>("userInfo")` are two messages, although the runtime
/// gives both payload types one metatype. The compiler tells them apart where a message is
/// declared, by the initializer it chooses, so on an ``EventHub`` a message declared in
/// generic code whose payload is a type parameter not constrained to `Sendable` counts as
/// non-`Sendable`: declare messages where their payload type is known, or constrain the
/// parameter. (A ``SharedEventHub`` carries `Sendable` payloads only, and does not need to
/// ask.) Two payload types that differ only by a `Sendable` nested inside them, and are both
/// `Sendable` or both not, such as `(Any, any Sendable)` and `(Any, Any)`, are one type at
/// run time: give such messages different names.
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

  /// Declares the message called `name`, carrying a `Payload` that is not `Sendable`, or
  /// not known to be where the message is declared (see the discussion of `Sendable`
  /// payloads above).
  public init(_ name: String) {
    self.init(name, sendablePayload: false)
  }

  /// Makes the message; `sendablePayload` says which of the two initializers the compiler
  /// chose, the one thing that tells `[String: Any]` from `[String: any Sendable]`.
  @usableFromInline
  init(_ name: String, sendablePayload: Bool) {
    self.name = name
    self.sendablePayload = sendablePayload
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

  /// Whether the payload type was `Sendable` where the message was declared. The runtime
  /// erases `Sendable` (`any Sendable` and `Any` have one metatype), so only the compiler,
  /// choosing the initializer, can tell the two apart.
  @usableFromInline let sendablePayload: Bool

  /// The name and the payload type, as `player.didStart(Track)`.
  public var description: String { "\(name)(\(Payload.self))" }

  /// The key of this message's channel in an ``EventHub``: its name, its payload type and
  /// whether that type is `Sendable`.
  @usableFromInline
  var channelKey: HubChannelKey {
    HubChannelKey(name: name, payload: ObjectIdentifier(Payload.self), sendable: sendablePayload, hash: keyHash)
  }

  /// The key of this message's channel in a ``SharedEventHub``, whose payloads are all
  /// `Sendable` (its methods require it): a message declared where that was not known, in
  /// generic code, is still the same message there.
  @usableFromInline
  var sharedChannelKey: HubChannelKey {
    HubChannelKey(name: name, payload: ObjectIdentifier(Payload.self), sendable: true, hash: keyHash)
  }
}

extension HubMessage where Payload: Sendable {
  /// Declares the message called `name`, carrying a `Sendable` `Payload`: the initializer
  /// the compiler chooses wherever `Payload` is known to be `Sendable`.
  public init(_ name: String) {
    self.init(name, sendablePayload: true)
  }
}
