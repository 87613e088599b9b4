/// The identity of a hub message: its name, its payload type, and whether that type is
/// `Sendable`. The runtime erases `Sendable` from a type (`[String: Any]` and
/// `[String: any Sendable]` have one metatype), so the key carries what the compiler knew
/// where the message was declared; without it an observer of `[String: any Sendable]`
/// would receive the non-`Sendable` payloads of `[String: Any]`.
@usableFromInline
struct HubChannelKey: Hashable, Sendable {
  @usableFromInline let name: String
  @usableFromInline let payload: ObjectIdentifier
  @usableFromInline let sendable: Bool
  /// The hash of the name and the payload type, computed once by the message. The two keys
  /// that differ only by `sendable` share it; equality tells them apart.
  @usableFromInline let hash: Int

  @inlinable
  init(name: String, payload: ObjectIdentifier, sendable: Bool, hash: Int) {
    self.name = name
    self.payload = payload
    self.sendable = sendable
    self.hash = hash
  }

  @inlinable
  static func == (a: Self, b: Self) -> Bool {
    a.payload == b.payload && a.sendable == b.sendable && a.name == b.name
  }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(hash)
  }
}

/// What a hub's channel delivers: one post, with its sender for the observers' filters.
@usableFromInline
struct HubPost<Payload> {
  @usableFromInline let payload: Payload
  @usableFromInline let sender: AnyObject?

  @inlinable
  init(_ payload: Payload, sender: AnyObject?) {
    self.payload = payload
    self.sender = sender
  }
}

/// The filter of one hub observer: every post, or only those of one sender.
@usableFromInline
struct HubSenderFilter: Sendable {
  /// Nil for every sender; held weakly, so the filter keeps nobody alive.
  @usableFromInline let sender: WeakReference?

  @inlinable
  init(_ sender: AnyObject?) {
    self.sender = sender.map(WeakReference.init)
  }

  /// Whether a post sent by `postSender` passes. A filter whose sender has deallocated lets
  /// nothing pass, even if a new object now has its address.
  @inlinable
  func admits(_ postSender: AnyObject?) -> Bool {
    guard let sender else { return true }
    guard let postSender, let target = sender.object else { return false }
    return target === postSender
  }
}

/// A hub channel (an event of posts) that can end its subscriptions without knowing its
/// payload type, when its hub deinitializes.
@usableFromInline
protocol HubChannel: AnyObject {
  func endAllSubscriptions()
}

/// A hub's table of channels, one per message that has been observed. A post finds its
/// channel and notifies it outside the lock; the channel's type is fixed by the key's
/// payload type (`sendable` apart, the runtime's type is the static one), so the downcast
/// after a lookup cannot fail.
@usableFromInline
struct HubChannels {
  @usableFromInline let table = Locked(HubChannelTable())

  @inlinable
  init() {}

  /// The channel of `key`, if it has been made.
  @inlinable
  func existing(_ key: HubChannelKey) -> (any HubChannel)? {
    table.withLock { table in table.index(of: key).map { table.slots[$0]!.channel } }
  }

  /// The channel of `key`, if it has been made, not retained: for a post, a method of the
  /// hub. The table keeps every channel until the hub deinitializes, and the hub lives
  /// through the call of its own method, so the channel does too; the post saves a retain
  /// and a release.
  @inlinable
  func existing(unretained key: HubChannelKey) -> Unmanaged<AnyObject>? {
    table.withLock { table in table.index(of: key).map { Unmanaged.passUnretained(table.slots[$0]!.channel) } }
  }

  /// The channel of `key`, made by `make` if this is the first observer of the message.
  @inlinable
  func channel(_ key: HubChannelKey, make: () -> any HubChannel) -> any HubChannel {
    table.withLock { table in
      if let index = table.index(of: key) { return table.slots[index]!.channel }
      let channel = make()
      table.insert(channel, for: key)
      return channel
    }
  }

  /// Empties the table and returns the channels, to be ended outside the lock.
  func removeAll() -> [any HubChannel] {
    table.withLock { table in
      defer { table = HubChannelTable() }
      return table.channels
    }
  }
}

/// The channels of one hub by key: an open-addressed table probed with the hash each
/// message computed once, at its declaration. A `Dictionary` would hash that `Int` again
/// with its own seeded `Hasher` on every post: measured with count-instructions.sh (S11),
/// that was close to a third of a post with one observer. The hash is already a seeded `Hasher`'s, so it spreads the
/// keys as well.
@usableFromInline
struct HubChannelTable {
  /// A power of two long, at most half full; nil marks a free slot. Nothing is ever removed
  /// but all at once, so a probe ends at the first free slot.
  @usableFromInline var slots: ContiguousArray<(key: HubChannelKey, channel: any HubChannel)?> = []
  @usableFromInline var count = 0

  @inlinable
  init() {}

  /// The slot of `key`'s channel, if it has been made. A post reads the channel through the
  /// index, so that no copy of it or of the message's name is retained: returning the
  /// channel made a post retain and release it once more, and probing through the array's
  /// buffer pointer retained the name instead, which crashes package-benchmark's retain
  /// counting on Linux with Swift 6.3 (swiftlang/swift#87696). The S11 retain thresholds
  /// pin this: check them (Benchmarks/check-thresholds.sh) after a change.
  @inlinable
  func index(of key: HubChannelKey) -> Int? {
    if slots.isEmpty { return nil }
    let mask = slots.count - 1
    var index = key.hash & mask
    while let slot = slots[index] {
      if slot.key == key { return index }
      index = (index + 1) & mask
    }
    return nil
  }

  /// Adds `channel` for `key`, which must not be in the table yet.
  @inlinable
  mutating func insert(_ channel: any HubChannel, for key: HubChannelKey) {
    if (count + 1) * 2 > slots.count {
      let old = slots
      slots = ContiguousArray(repeating: nil, count: max(8, old.count * 2))
      count = 0
      for case let slot? in old { insert(slot.channel, for: slot.key) }
    }
    let mask = slots.count - 1
    var index = key.hash & mask
    while slots[index] != nil { index = (index + 1) & mask }
    slots[index] = (key, channel)
    count += 1
  }

  /// Whether no channel has been made.
  var isEmpty: Bool { count == 0 }

  /// Every channel in the table.
  var channels: [any HubChannel] {
    slots.compactMap { $0?.channel }
  }
}
