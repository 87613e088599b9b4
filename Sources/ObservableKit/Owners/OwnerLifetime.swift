/// Ties to their owner's life the owner-bound subscriptions whose source cannot know the
/// owner: those made through a source's public API by ``ExternalOwner`` (derived sources, the
/// shared family's deliveries, actors as owners, async handlers). When the owner is found
/// gone, the subscription ends and its handler is released, without any value arriving.
///
/// Owner-bound observation is two mechanisms, each for a reason:
/// - **The storage's own** (`ObserverStorage.addOwnerBound`, behind `ObservableEvent`,
///   `Property`, `SharedProperty` and `EventHub`): the storage keeps the owner's link beside
///   the subscription, because `observerCount` and `unsubscribe(_:)` need it there anyway,
///   and sweeps dead owners as it grows.
/// - **This list**, for the rest: the subscription's source holds only a closure, so the
///   subscription is listed here with its owner, both weakly, and the list sweeps dead owners
///   as it grows.
///
/// Neither looks the owner up: no record per owner, no table keyed by the owner, no
/// associated object. A lookup was what owner-bound observation cost (a process-wide table
/// on Linux; `objc_getAssociatedObject` under the runtime's process-wide association lock on
/// Apple platforms, for every subscription); an append under one short lock is what is
/// left, the same on every platform. The owner keeps nothing: once a subscription ends, the
/// only trace left is this list's weak entry, dropped at the next sweep.
@usableFromInline
enum OwnerLifetime {
  /// Ends `subscription` once `owner` is found gone. `subscription` must be an object the
  /// source keeps alive while the subscription lasts (its handler captures it): the list
  /// holds it weakly.
  static func tie(_ subscription: some AnyObject & Disposable, to owner: WeakReference) {
    OwnerLifetimeList.shared.add(owner: owner, subscription)
  }
}

/// The process-wide list of ``OwnerLifetime``: each subscription with its owner, both held
/// weakly. When the list has doubled since the last sweep, an add sweeps it: a subscription
/// whose owner has gone is disposed, one that has ended is dropped. So it holds at most about
/// twice the live subscriptions, each two references, and a dead owner's subscription ends
/// after at most as many more owner-bound subscriptions anywhere in the process as were live.
///
/// Invariant where the lock is dropped: a sweep takes a copy of the first `n` entries under
/// the lock, checks them outside it (the checks load weak references, which may return the
/// last reference to an owner, and take the sources' locks; disposing may release a source),
/// and comes back to replace those `n` entries with the ones kept. Meanwhile entries are only
/// appended (one sweep at a time: the threshold is `Int.max` while it runs), so the first `n`
/// are still the copy's, and an add made meanwhile is kept.
final class OwnerLifetimeList: Sendable {
  static let shared = OwnerLifetimeList()

  struct Member: Sendable {
    let owner: WeakReference
    weak var subscription: (any AnyObject & Disposable)?
  }

  private struct State: Sendable {
    var entries: ContiguousArray<Member> = []
    /// The size at which the next add sweeps; `Int.max` while a sweep runs.
    var sweepAt = OwnerLifetimeList.minimumSweepSize
  }

  static let minimumSweepSize = 64
  private let state = Locked(State())

  func add(owner: WeakReference, _ subscription: any AnyObject & Disposable) {
    let sweep = state.withLock { state -> ContiguousArray<Member>? in
      state.entries.append(Member(owner: owner, subscription: subscription))
      guard state.entries.count >= state.sweepAt else { return nil }
      state.sweepAt = .max
      return state.entries
    }
    if let sweep { self.sweep(sweep) }
  }

  /// Ends the subscriptions of dead owners among `entries` (the list's first entries, copied
  /// under the lock) and drops the ended ones; see the invariant above.
  private func sweep(_ entries: ContiguousArray<Member>) {
    schedulePoint("bound subscriptions: sweeping a copy outside the lock")
    var kept = ContiguousArray<Member>()
    for entry in entries {
      guard let subscription = entry.subscription else { continue }
      if entry.owner.object == nil {
        subscription.dispose()
      } else if !subscription.isDisposed {
        kept.append(entry)
      }
    }
    schedulePoint("bound subscriptions: putting the kept ones back")
    state.withLock { state in
      state.entries.replaceSubrange(0..<entries.count, with: kept)
      state.sweepAt = max(Self.minimumSweepSize, 2 * state.entries.count)
    }
  }

  /// How many subscriptions the list holds, ended ones not yet swept included.
  var count: Int { state.withLock { $0.entries.count } }
}
