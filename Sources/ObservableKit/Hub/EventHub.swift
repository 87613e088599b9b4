/// A typed, scoped replacement for `NotificationCenter`: parts of a program that should not
/// know each other post and observe ``HubMessage``s through a hub they are given.
///
/// ```swift
/// enum PlayerMessages {
///   static let didStart = HubMessage<Track>("player.didStart")
/// }
///
/// let hub = EventHub()                                    // made by you, injected where needed
/// hub.observe(PlayerMessages.didStart) { track in print("now playing", track.title) }
///   .disposed(by: bag)
/// hub.post(PlayerMessages.didStart, track, from: player)
/// ```
///
/// - **Typed.** A message declares its payload type once. ``post(_:_:from:)`` takes exactly
///   that type and handlers receive exactly that type; a mismatch does not compile.
/// - **Scoped.** Hubs are instances. There is no process-wide default: create one per scope
///   (a window, a document, a test) and pass it to the code that needs it.
/// - **Filtered by sender.** `observe(_:from:_:)` with a sender hears only the posts made
///   with `from:` that same object, like NotificationCenter's `object:`; without one it
///   hears every post of the message. The sender is held weakly by the filter.
///
/// ## Threads and order
/// Each message behaves as an ``ObservableEvent`` of its payload: handlers run synchronously
/// on the posting thread, in subscription order, with no lock of the library held. An
/// `EventHub` is not `Sendable`: the compiler keeps it and its plain-closure handlers in the
/// isolation domain that made it. To post from one domain and observe from another, use
/// ``SharedEventHub``.
///
/// ## Re-entrancy
/// - A post of a message from inside one of its own handlers, on the same thread, is queued
///   and delivered after the current pass, in order. A post of another message is
///   delivered at once, before that `post` returns.
/// - A handler disposed during a pass is not called again once `dispose()` returns; a
///   handler registered during a pass first hears the next post.
///
/// ## Lifetime
/// The hub holds its handlers strongly until they are disposed or the hub deinitializes;
/// dropping the hub ends every subscription made through it. A message's channel is made by
/// its first observer and kept for the hub's life, so a hub's memory grows with the number
/// of messages observed, not with the number of posts. A post nobody observes allocates
/// nothing.
public final class EventHub {
  @usableFromInline typealias Channel<Payload> = ObservableEvent<HubPost<Payload>>

  @usableFromInline let channels = HubChannels()

  /// Creates a hub with no observers.
  public init() {}

  deinit {
    for channel in channels.removeAll() { channel.endAllSubscriptions() }
  }

  /// Delivers `payload` to the observers of `message` whose sender filter admits `sender`.
  ///
  /// - Parameters:
  ///   - message: The message to post.
  ///   - payload: Its payload, of the type the message declares.
  ///   - sender: The object posting, matched by identity against observers' `from:`
  ///     filters. Observers without a filter hear the post either way.
  @inlinable
  public func post<Payload>(_ message: HubMessage<Payload>, _ payload: Payload, from sender: AnyObject? = nil) {
    post(message.channelKey, payload, from: sender)
  }

  /// Posts a message that carries no payload.
  @inlinable
  public func post(_ message: HubMessage<Void>, from sender: AnyObject? = nil) {
    post(message, (), from: sender)
  }

  /// The posts of `message` as an event, to observe with any form events have: operators,
  /// ``EventSource/values``, owner-bound, queue or main-actor delivery.
  ///
  /// - Parameters:
  ///   - message: The message to observe.
  ///   - sender: If given, only posts made with `from:` this object are delivered. It is
  ///     held weakly; once it has deallocated nothing is delivered.
  ///
  /// The view holds the hub weakly: observing it after the hub has gone registers nothing
  /// and returns a disposable that is already disposed.
  public func events<Payload>(_ message: HubMessage<Payload>, from sender: AnyObject? = nil) -> ReadOnlyEvent<Payload> {
    let filter = HubSenderFilter(sender)
    // The channel is made by the first observe, not here.
    return ReadOnlyEvent { [weak self] handler in
      self?.register(message.channelKey, filter, handler) ?? CompositeDisposable([])
    }
  }

  /// Registers `handler` for every later post of `message`.
  ///
  /// - Parameters:
  ///   - message: The message to observe.
  ///   - sender: If given, only posts made with `from:` this object are delivered. Held
  ///     weakly; once it has deallocated nothing is delivered.
  ///   - handler: Called synchronously on the posting thread, after the handlers of this
  ///     message registered before it.
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  @inlinable @_disfavoredOverload
  public func observe<Payload>(
    _ message: HubMessage<Payload>,
    from sender: AnyObject? = nil,
    _ handler: @escaping (Payload) -> Void
  ) -> any Disposable {
    register(message.channelKey, HubSenderFilter(sender), handler)
  }

  /// Registers `handler` as ``observe(_:from:_:)`` does; in a debug build inside
  /// ObservableKitTesting's `withLeakCheck`, the subscription is named by `fileID:line`.
  @inlinable
  public func observe<Payload>(
    _ message: HubMessage<Payload>,
    from sender: AnyObject? = nil,
    _ handler: @escaping (Payload) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(register(message.channelKey, HubSenderFilter(sender), handler), fileID, line)
  }

  /// Registers `handler` for as long as `owner` is alive, passing the owner in, so the
  /// handler needs no `[weak self]`; see ``ObservableEvent/observe(with:_:)``.
  @discardableResult
  public func observe<Payload, Owner: AnyObject>(
    _ message: HubMessage<Payload>,
    from sender: AnyObject? = nil,
    with owner: Owner,
    _ handler: @escaping (Owner, Payload) -> Void
  ) -> any Disposable {
    let filter = HubSenderFilter(sender)
    // The channel's own owner-bound form, not `ExternalOwner`: its storage knows the owner,
    // so a gone owner stops counting in `observerCount(of:)` at once.
    return channel(for: message.channelKey, Payload.self).observe(with: owner) { owner, post in
      if filter.admits(post.sender) { handler(owner, post.payload) }
    }
  }

  /// Registers a main-actor handler: called at once for a post made on the main actor when
  /// nothing of this subscription waits, otherwise enqueued to the main actor, in order; see
  /// ``EventSource/observe(on:_:)-(MainActor,_)``.
  public func observe<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: AnyObject? = nil,
    on mainActor: MainActor,
    _ handler: @escaping @MainActor (Payload) -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(on: mainActor, handler)
  }

  /// The number of live subscriptions to `message`, whatever their sender filter.
  public func observerCount<Payload>(of message: HubMessage<Payload>) -> Int {
    observerCount(message.channelKey, Payload.self)
  }
}

// The hub's machinery, by channel key: ``SharedEventHub`` wraps an `EventHub` and calls it
// with the keys of its own messages (`HubMessage.sharedChannelKey`).
extension EventHub {
  /// Delivers `payload` on the channel of `key`, if it has been made; `post`'s body.
  @inlinable
  func post<Payload>(_ key: HubChannelKey, _ payload: Payload, from sender: AnyObject?) {
    guard let channel = channels.existing(unretained: key) else { return }
    channel._withUnsafeGuaranteedRef {
      unsafeDowncast($0, to: Channel<Payload>.self).notifyObservers(HubPost(payload, sender: sender))
    }
  }

  /// Registers `handler` on the channel of `key`, behind `filter`: the one subscription of
  /// `observe` and `events`, of both hubs. Inlinable, so the filtering closure is
  /// specialized for the payload where `observe` is written (unspecialized, it asks the
  /// runtime for the post type's metadata on every call).
  @inlinable
  func register<Payload>(
    _ key: HubChannelKey,
    _ filter: HubSenderFilter,
    _ handler: @escaping (Payload) -> Void
  ) -> any Disposable {
    channel(for: key, Payload.self).observe { post in
      if filter.admits(post.sender) { handler(post.payload) }
    }
  }

  /// The channel of `key`, made now if this is its first observer.
  @usableFromInline
  func channel<Payload>(for key: HubChannelKey, _: Payload.Type) -> Channel<Payload> {
    unsafeDowncast(channels.channel(key) { Channel<Payload>() }, to: Channel<Payload>.self)
  }

  /// The number of live subscriptions on the channel of `key`.
  func observerCount<Payload>(_ key: HubChannelKey, _: Payload.Type) -> Int {
    channels.existing(key).map { unsafeDowncast($0, to: Channel<Payload>.self).observerCount } ?? 0
  }
}

extension ObservableEvent: HubChannel {
  @usableFromInline
  func endAllSubscriptions() {
    storage.removeAll()
  }
}
