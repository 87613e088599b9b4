/// An ``EventHub`` that may be shared across isolation domains: post from any thread, task
/// or actor, and observe from any of them.
///
/// ```swift
/// let hub = SharedEventHub()                          // Sendable: hand it to any task
///
/// @MainActor final class NowPlayingViewModel {
///   var title = ""
///   let bag = DisposeBag()
///   init(hub: SharedEventHub) {
///     hub.observe(PlayerMessages.didStart) { [weak self] track in self?.title = track.title }
///       .disposed(by: bag)
///   }
/// }
/// ```
///
/// Messages, posts and sender filters work as in ``EventHub``; payloads must be `Sendable`,
/// and so must senders, since a post carries its sender to other domains.
///
/// ## Where and when handlers run
/// Each message behaves as a ``SharedEvent`` of its payload. A handler keeps the isolation of
/// the code that registered it: registered from nonisolated code it runs on the posting
/// thread before ``post(_:_:from:)`` returns; registered on the main actor it runs on the
/// main actor, at once when the post is made there and nothing of the subscription waits,
/// otherwise enqueued; registered on another actor it is enqueued to that actor. Before the
/// 26 releases (macOS 26, iOS 26 and the others) the nonisolated and main-actor cases are
/// enqueued too; the `on: MainActor.shared` form runs at once there as well. The calls
/// of one subscription never overlap and keep the order of the posts.
/// ``observeNonisolated(_:from:_:)`` is the fast path for nonisolated handlers.
///
/// ## Re-entrancy and lifetime
/// As for ``EventHub``: a post of a message from inside one of its handlers, on the same
/// thread, is queued after the current pass; dropping the hub ends every subscription made
/// through it. There is no process-wide default; a `static let` of your own makes one if you
/// want it.
public final class SharedEventHub: @unchecked Sendable {
  // `hub`'s channels and their observer lists are locked; every handler put there is @Sendable.
  @usableFromInline let hub = EventHub()

  /// Creates a hub with no observers.
  public init() {}

  /// Delivers `payload` to the observers of `message` whose sender filter admits `sender`;
  /// see ``EventHub/post(_:_:from:)``.
  @inlinable
  public func post<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    _ payload: Payload,
    from sender: (any AnyObject & Sendable)? = nil
  ) {
    hub.post(message.sharedChannelKey, payload, from: sender)
  }

  /// Posts a message that carries no payload.
  @inlinable
  public func post(_ message: HubMessage<Void>, from sender: (any AnyObject & Sendable)? = nil) {
    post(message, (), from: sender)
  }

  /// The posts of `message` as a shared event, to observe with any form shared events have:
  /// operators, ``SharedEventSource/values``, owner-bound, queue or main-actor delivery.
  ///
  /// - Parameters:
  ///   - message: The message to observe.
  ///   - sender: If given, only posts made with `from:` this object are delivered. It is
  ///     held weakly; once it has deallocated nothing is delivered.
  ///
  /// The view holds the hub weakly: observing it after the hub has gone registers nothing
  /// and returns a disposable that is already disposed.
  public func events<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil
  ) -> SharedReadOnlyEvent<Payload> {
    let filter = HubSenderFilter(sender)
    // The channel is made by the first observe, not here.
    return SharedReadOnlyEvent { [weak self] handler in
      self?.hub.register(message.sharedChannelKey, filter, handler) ?? CompositeDisposable([])
    }
  }

  /// Registers `handler` for every later post of `message`. The handler keeps the isolation
  /// of the code that calls this method; see the type's discussion for when it runs. In a
  /// debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is named
  /// by `fileID:line`, the call site.
  ///
  /// - Returns: A disposable that ends this subscription. Dropping it does not end it.
  public func observe<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Payload) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> any Disposable {
    events(message, from: sender).observe(handler, fileID: fileID, line: line)
  }

  /// Registers `handler`, called synchronously on the posting thread, concurrently when
  /// posts come from several threads: the fast path, for nonisolated code.
  @inlinable @_disfavoredOverload
  public func observeNonisolated<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    _ handler: @escaping @Sendable (Payload) -> Void
  ) -> any Disposable {
    hub.register(message.sharedChannelKey, HubSenderFilter(sender), handler)
  }

  /// Registers `handler` as ``observeNonisolated(_:from:_:)`` does; in a debug build inside
  /// ObservableKitTesting's `withLeakCheck`, the subscription is named by `fileID:line`.
  @inlinable
  public func observeNonisolated<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    _ handler: @escaping @Sendable (Payload) -> Void,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> any Disposable {
    SubscriptionSites.named(hub.register(message.sharedChannelKey, HubSenderFilter(sender), handler), fileID, line)
  }

  /// Registers `handler` for as long as `owner` is alive, passing the owner in; the handler
  /// keeps the isolation of the caller. See `SharedEventSource.observe(with:_:)`.
  @discardableResult
  public func observe<Payload: Sendable, Owner: AnyObject & Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    with owner: Owner,
    @_inheritActorContext _ handler: @escaping @isolated(any) @Sendable (Owner, Payload) -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(with: owner, handler)
  }

  /// Registers a main-actor handler, whatever the caller's isolation: called at once for a
  /// post made on the main actor when nothing of this subscription waits, otherwise
  /// enqueued to the main actor, in order.
  public func observe<Payload: Sendable>(
    _ message: HubMessage<Payload>,
    from sender: (any AnyObject & Sendable)? = nil,
    on mainActor: MainActor,
    _ handler: @escaping @MainActor (Payload) -> Void
  ) -> any Disposable {
    events(message, from: sender).observe(on: mainActor, handler)
  }

  /// The number of live subscriptions to `message`, whatever their sender filter.
  public func observerCount<Payload: Sendable>(of message: HubMessage<Payload>) -> Int {
    hub.observerCount(message.sharedChannelKey, Payload.self)
  }
}
