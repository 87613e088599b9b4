/// A container that disposes everything added to it, when you call ``dispose()`` or when
/// the bag deinitializes.
///
/// ```swift
/// let bag = DisposeBag()
/// scoreChanged.observe { score in print(score) }.disposeWith(bag)
/// ```
///
/// - A bag is thread-safe: add and dispose from any thread.
/// - Disposing is final. A disposable added to a disposed bag is disposed at once.
/// - Disposing stops every subscription in the bag before it runs any other disposable or
///   releases any captured state, so a handler's teardown can never deliver to a sibling
///   handler of the same bag. Other disposables are then disposed in the order added.
/// - Entries that were disposed elsewhere are dropped as the bag grows, so a long-lived bag
///   holds at most about twice its live entries, or 128 entries while fewer are live.
/// - No lock is held while disposables or deinitializers run, so disposing a bag from inside
///   a handler, or adding to it from a disposal, is safe.
public final class DisposeBag: Disposable {
  private struct State {
    var entries: ContiguousArray<any Disposable> = []
    var isDisposed = false
    var isPruning = false
    var pruneThreshold = DisposeBag.minimumPruneThreshold
  }

  /// The size below which a bag never prunes. A prune asks every entry whether it is
  /// disposed (a subscription's answer takes its source's lock), so a bag that is filled and
  /// disposed in one go, the usual life of a bag, should not pay for one: at 32, the prunes
  /// at 32 and 64 entries were a fifth of the instructions of filling a bag from 100 sources
  /// and disposing it (count-instructions.sh, S5m: 527 of 2,796 per entry at 91767f2).
  static let minimumPruneThreshold = 128
  private let state = Locked(State())

  /// Creates an empty bag.
  public init() {}

  deinit {
    dispose()
  }

  /// Adds `disposable` to the bag; disposes it at once if the bag was disposed.
  public func addDisposable(_ disposable: any Disposable) {
    enum Action { case none, disposeNow, prune(ContiguousArray<any Disposable>) }
    let action = state.withLock { state -> Action in
      if state.isDisposed { return .disposeNow }
      state.entries.append(disposable)
      guard state.entries.count >= state.pruneThreshold, !state.isPruning else { return .none }
      state.isPruning = true
      // A copy: the entries stay in the bag, where a concurrent dispose() finds them.
      return .prune(state.entries)
    }
    switch action {
    case .none: break
    case .disposeNow: disposable.dispose()
    case .prune(let snapshot):
      schedulePoint("bag.prune: the snapshot is checked outside the lock")
      prune(snapshot)
    }
  }

  /// Disposes everything in the bag, now and whatever is added later. Idempotent.
  public func dispose() {
    let taken = state.withLock { state in
      state.isDisposed = true
      defer { state.entries = [] }
      return state.entries
    }
    schedulePoint("bag.dispose: the entries are disposed outside the lock")
    Self.dispose(taken)
  }

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { state.withLock { $0.isDisposed } }

  /// The number of entries held, live or not yet pruned (for tests).
  var entryCount: Int { state.withLock { $0.entries.count } }

  // The one place the bag lets go of its lock mid-operation: pruning.
  // `isDisposed` of an entry may be user code, so a prune reads a snapshot of the first `n`
  // entries under the lock, asks each outside it, and comes back to drop the disposed ones.
  // Invariant: while a prune runs (`isPruning`), the entries are never taken out of the bag;
  // they only grow at the end (`addDisposable(_:)`) or are taken whole by `dispose()`. So
  // when the prune comes back, either the bag was disposed, and `dispose()` already disposed
  // every entry including the snapshot, or the first `n` entries are still the snapshot and
  // the disposed ones can be dropped by position. A `dispose()` that races with a prune
  // therefore always finds every entry ever added.

  /// Drops entries that were disposed elsewhere. `isDisposed` may be user code, so it runs
  /// outside the lock, on `snapshot`, the first entries of the bag (see the invariant above
  /// for why they are still there when this comes back).
  private func prune(_ snapshot: ContiguousArray<any Disposable>) {
    let disposed = snapshot.map(\.isDisposed)
    schedulePoint("bag.prune: coming back to the lock")
    let anyDisposed = disposed.contains(true)
    let dropped = state.withLock { state -> ContiguousArray<any Disposable> in
      state.isPruning = false
      if state.isDisposed { return [] }
      // Nothing to drop: the entries stay as they are, uncopied.
      guard anyDisposed else {
        state.pruneThreshold = max(Self.minimumPruneThreshold, state.entries.count * 2)
        return []
      }
      var kept = ContiguousArray<any Disposable>()
      var dropped = ContiguousArray<any Disposable>()
      kept.reserveCapacity(state.entries.count)
      for (index, entry) in state.entries.enumerated() {
        if index < disposed.count, disposed[index] { dropped.append(entry) } else { kept.append(entry) }
      }
      state.entries = kept
      state.pruneThreshold = max(Self.minimumPruneThreshold, kept.count * 2)
      return dropped
    }
    // The dropped entries are released here, outside the lock.
    withExtendedLifetime(dropped) {}
  }

  private static func dispose(_ entries: ContiguousArray<any Disposable>) {
    var deferred: ContiguousArray<Any> = []
    deferred.reserveCapacity(entries.count)
    var others: ContiguousArray<any Disposable> = []
    for entry in entries {
      if let subscription = inlineSubscription(entry) {
        if let held = subscription.stop() { deferred.append(held) }
      } else {
        others.append(entry)
      }
    }
    for other in others { other.dispose() }
    withExtendedLifetime(deferred) {}
  }

  /// `entry` if it is the value token every storage's `observe` returns, found by comparing
  /// its type, not by a dynamic cast: `as? InlineSubscription` went through the runtime's
  /// cast machinery, a tenth of the instructions of filling a bag from 100 sources and
  /// disposing it (count-instructions.sh, S5m: 257 of 2,796 per entry at 91767f2).
  private static func inlineSubscription<Entry: Disposable>(_ entry: Entry) -> InlineSubscription? {
    guard Entry.self == InlineSubscription.self else { return nil }
    return unsafeBitCast(entry, to: InlineSubscription.self)
  }
}

extension DisposeBag: CustomDebugStringConvertible {
  /// The number of entries the bag holds, or that it is disposed, for example
  /// `DisposeBag(entries: 3)`.
  public var debugDescription: String {
    isDisposed ? "DisposeBag(disposed)" : "DisposeBag(entries: \(entryCount))"
  }
}
