/// Keeps two properties equal (through a mapping): what ``Property/bind(to:)`` and
/// ``SharedProperty/bind(to:)`` make.
///
/// How it avoids the three ways two-way bindings fail elsewhere:
/// - No echo, by origin: the binding records, under its lock and inside the critical
///   section of the property it sets, the version its set gives that property. Its handler
///   on that property then recognizes the version as its own and does not send it back. Any
///   other version, also one set by a handler during the propagation, is propagated: there
///   is no "updating" flag that drops a set.
/// - No deadlock: the binding's lock guards only versions and never surrounds a set or user
///   code. One thread at a time propagates (the one holding `busy`); a change seen while
///   another propagates is left for it as `pending`, the side changed last, which it
///   propagates before letting go. So the last write wins on both sides. The usual
///   propagation lets go in the same critical section that records its set's version, when
///   nothing is pending (see ``BindingCore/wrote(_:version:)``).
/// - No loop: a side's value is propagated only if its version is newer than both the one
///   the binding wrote into it and the one it last propagated from it, so a lossy
///   `map`/`reverse` pair never bounces.
/// - No cycle: a set it makes is named by the set it carries (``BindingPropagation``, a frame
///   on the setting thread), is not made into a property that set has reached, and each
///   binding carries a set once (`joined`): a ring of bindings stops where it started.
///
/// Invariant where the lock is dropped (around each read of a side, the user's mapping, and
/// each set): only the thread holding `busy` propagates (the one that let go of it with its
/// set's record touches nothing of the binding after that set), `written` and `propagated` only
/// grow, and a set checks `disposed` in the same critical section that records its version,
/// so no set of the binding lands after ``Disposable/dispose()`` has returned.
@usableFromInline
final class BindingCore: @unchecked Sendable {
  // `state` (a `Locked`, its own mutex) guards every mutable member. No user closure here.
  struct State {
    var written: (UInt64, UInt64) = (0, 0)
    var propagated: (UInt64, UInt64) = (0, 0)
    var pending: Side?
    var busy = true
    var disposed = false
    var tokens: [any Disposable] = []
    /// The propagation this binding last took part in (see ``BindingPropagation``): once
    /// one of its sides has been set in a propagation, both sides have been reached in it
    /// (it set the other, or found it reached), so a set of either side in the same
    /// propagation is not sent across.
    var joined: BindingPropagation?
  }

  @usableFromInline enum Side { case left, right }

  let state = Locked(State())

  @usableFromInline init() {}

  /// Whether a change of `side` to `version` must be propagated; if so, and nobody is
  /// propagating, this thread now is (true).
  /// Keeps the subscriptions; the start (busy since init) propagates from the left side
  /// first, unless a set of a side was seen meanwhile.
  @usableFromInline
  func started(tokens: [any Disposable]) {
    state.withLock { state in
      state.tokens = tokens
      if state.pending == nil { state.pending = .left }
    }
  }

  /// Whether a change of `side` to `version`, heard as part of `propagation`, must be sent
  /// across by this thread (true: it now propagates); not when this binding has taken part
  /// in that propagation already, when it is not new, or when another thread propagates.
  @usableFromInline
  func changed(_ side: Side, version: UInt64, in propagation: BindingPropagation) -> Bool {
    state.withLock { state in
      if state.disposed || version <= state.seen(side) { return false }
      if state.joined == propagation {
        // Reached by this propagation already, both sides: the set is not sent across.
        state.setPropagated(side, version)
        return false
      }
      if state.busy {
        // Left for the propagating thread, which reads the side's current value.
        state.pending = side
        return false
      }
      // This thread propagates, starting with this very set.
      state.busy = true
      state.setPropagated(side, version)
      state.joined = propagation
      return true
    }
  }

  /// The next side to propagate, or nil after letting go of `busy`.
  @usableFromInline
  func next() -> Side? {
    state.withLock { state in
      guard !state.disposed, let side = state.pending else {
        state.busy = false
        return nil
      }
      state.pending = nil
      return side
    }
  }

  /// Claims the propagation of `side` at `version`, in `propagation`: false if it is not
  /// new, or disposed, or this binding has taken part in that propagation.
  @usableFromInline
  func claim(_ side: Side, version: UInt64, in propagation: BindingPropagation) -> Bool {
    state.withLock { state in
      if state.disposed || version <= state.seen(side) { return false }
      state.setPropagated(side, version)
      if state.joined == propagation { return false }
      state.joined = propagation
      return true
    }
  }

  /// What recording a set of the binding found: `nil` once disposed (the set is not made);
  /// otherwise whether this thread still propagates (`true`: a side is pending, so it keeps
  /// `busy` and goes on with ``next()``) or has let go of `busy` with the record (`false`).
  /// Called inside the set side's critical section.
  ///
  /// Letting go here, before the set is delivered, folds the release into the record that
  /// was needed anyway: no separate round trip of the binding's lock to let go (with the
  /// echo recognized outside the lock, see `PropertyBinding.leftEcho`, the usual
  /// propagation takes it twice: the start and this record). It is safe because
  /// - the echo is recognized by its version (`seen`), which this record has just raised,
  ///   not by `busy`: the binding's own set is ignored whoever holds `busy` then;
  /// - the propagating thread touches nothing of the binding after this set (the caller
  ///   returns at once on `false`), so a thread that takes `busy` from here on is alone;
  /// - a set made from here on, also by a handler of this delivery, finds `busy` free and is
  ///   propagated by the thread that hears it, so nothing is left pending with nobody to
  ///   propagate it.
  @usableFromInline
  func wrote(_ side: Side, version: UInt64) -> Bool? {
    state.withLock { state in
      if state.disposed { return nil }
      state.setWritten(side, version)
      if state.pending != nil { return true }
      state.busy = false
      return false
    }
  }

  @usableFromInline
  func dispose() {
    let tokens = state.withLock { state -> [any Disposable] in
      state.disposed = true
      defer { state.tokens = [] }
      return state.tokens
    }
    for token in tokens { token.dispose() }
  }

  @usableFromInline var isDisposed: Bool { state.withLock { $0.disposed } }
}

extension BindingCore.State {
  func seen(_ side: BindingCore.Side) -> UInt64 {
    side == .left ? max(written.0, propagated.0) : max(written.1, propagated.1)
  }
  mutating func setWritten(_ side: BindingCore.Side, _ version: UInt64) {
    if side == .left { written.0 = max(written.0, version) } else { written.1 = max(written.1, version) }
  }
  mutating func setPropagated(_ side: BindingCore.Side, _ version: UInt64) {
    if side == .left { propagated.0 = max(propagated.0, version) } else { propagated.1 = max(propagated.1, version) }
  }
}

/// What ends a binding: the core, which holds the two subscriptions.
@usableFromInline
struct BindingDisposable: Disposable {
  @usableFromInline let core: BindingCore
  @inlinable init(core: BindingCore) { self.core = core }
  @usableFromInline func dispose() { core.dispose() }
  @usableFromInline var isDisposed: Bool { core.isDisposed }
}

/// The propagating half of a binding: the sides, held weakly, and the mappings. Each side's
/// subscription holds it; it is not Sendable. A binding of ``SharedProperty`` values makes
/// it with `@Sendable` mappings only, so its handlers may run on any thread.
@usableFromInline
final class PropertyBinding<A, B> {
  @usableFromInline let core = BindingCore()
  @usableFromInline weak var left: Property<A>?
  @usableFromInline weak var right: Property<B>?
  @usableFromInline let map: (A) -> B
  @usableFromInline let reverse: (B) -> A
  /// The version of the last set of the binding that its own thread delivered holding the
  /// side's turn, per side (0: none). Guarded by that side's delivery turn, not by a lock:
  /// it is written only by ``send(_:to:_:)`` between taking the turn with the set and
  /// delivering it, and read only by this binding's handler on that side, which runs
  /// holding the same turn. The turn's take and release are acquire-release operations,
  /// so each read sees the last write. It lets the handler recognize the usual echo (its
  /// own set, delivered at once on the propagating thread) without the binding's lock; any
  /// other version, and an echo delivered otherwise, take the checks of
  /// ``BindingCore/changed(_:version:in:)``, which recognize an echo by `written` as before.
  @usableFromInline var leftEcho: UInt64 = 0
  @usableFromInline var rightEcho: UInt64 = 0
  /// The sides' storages, which name them in propagations (``BindingPropagation``): kept
  /// here so that naming a side costs no load of its weak reference.
  @usableFromInline let leftID: ObjectIdentifier
  @usableFromInline let rightID: ObjectIdentifier

  @inlinable
  init(_ left: Property<A>, _ right: Property<B>, map: @escaping (A) -> B, reverse: @escaping (B) -> A) {
    self.left = left
    self.right = right
    leftID = left.storage.objectID
    rightID = right.storage.objectID
    self.map = map
    self.reverse = reverse
  }

  /// Registers on both sides, then makes `right` take `left`'s value (mapped), and returns
  /// what ends the binding.
  @inlinable
  static func start(
    _ left: Property<A>, _ right: Property<B>, map: @escaping (A) -> B, reverse: @escaping (B) -> A
  ) -> any Disposable {
    let binding = PropertyBinding(left, right, map: map, reverse: reverse)
    // A property bound to itself would propagate its own sets forever: a defined no-op.
    if left === (right as AnyObject) {
      binding.core.dispose()
      return BindingDisposable(core: binding.core)
    }
    let tokens = [
      left.register(replay: false) { _, update in binding.heardLeft(update) },
      right.register(replay: false) { _, update in binding.heardRight(update) },
    ]
    binding.core.started(tokens: tokens)
    schedulePoint("binding: registered, propagating the start")
    binding.work()
    return BindingDisposable(core: binding.core)
  }

  /// A set of the left side: propagated at once with the set's own value when no other
  /// thread propagates (the usual case: no second read of the side), then what is pending.
  @inlinable
  func heardLeft(_ update: PropertyUpdate<A>) {
    // The binding's own set, delivered on the propagating thread: ignored, lock-free.
    if update.version == leftEcho { return }
    let propagation = BindingFrame.propagation(of: leftID, version: update.version)
      ?? BindingPropagation(origin: leftID, version: update.version)
    guard core.changed(.left, version: update.version, in: propagation) else { return }
    guard let right else { return core.dispose() }
    // A cycle of bindings has brought the set back round: the other side has it already.
    if BindingFrame.hasReached(rightID, in: propagation) { return work() }
    // Usually the record of the set lets go of `busy`: nothing more to do here.
    if send(map(update.value), to: right, .right, in: propagation) { work() }
  }

  /// A set of the right side; see ``heardLeft(_:)``.
  @inlinable
  func heardRight(_ update: PropertyUpdate<B>) {
    if update.version == rightEcho { return }
    let propagation = BindingFrame.propagation(of: rightID, version: update.version)
      ?? BindingPropagation(origin: rightID, version: update.version)
    guard core.changed(.right, version: update.version, in: propagation) else { return }
    guard let left else { return core.dispose() }
    if BindingFrame.hasReached(leftID, in: propagation) { return work() }
    if send(reverse(update.value), to: left, .left, in: propagation) { work() }
  }

  /// Sets `target` to `value`, recording the version the set gives it (or not setting it,
  /// once disposed) in its critical section, and says whether this thread still propagates
  /// (see ``BindingCore/wrote(_:version:)``: false once it has let go of `busy`).
  /// `dispose()` disposes the two subscriptions after marking the binding disposed, and each
  /// takes its side's lock: a set that passed the check has landed before `dispose()`
  /// returns.
  ///
  /// The set and its delivery run with a frame on this thread that names it as a set of
  /// `propagation` (``BindingFrame``), so the bindings of the target carry it on in the
  /// same propagation.
  @inlinable
  func send<Y>(
    _ value: Y, to target: Property<Y>, _ targetSide: BindingCore.Side, in propagation: BindingPropagation
  ) -> Bool {
    BindingFrame.pushed(propagation, target: targetSide == .left ? leftID : rightID) { frame in
      send(value, to: target, targetSide, frame)
    }
  }

  @inlinable
  func send<Y>(
    _ value: Y, to target: Property<Y>, _ targetSide: BindingCore.Side, _ frame: UnsafeMutablePointer<BindingFrame>
  ) -> Bool {
    schedulePoint("binding: setting the other side")
    // Written only inside the change, which `commit` calls at most once, on this thread,
    // before it returns.
    var stillBusy = true
    let made = target.commit { state in
      guard let busy = core.wrote(targetSide, version: state.version + 1) else { return nil }
      stillBusy = busy
      frame.pointee.version = state.version + 1
      return state.replace(with: value)
    }
    guard let made else { return stillBusy }
    if !stillBusy {
      // Another thread may take `busy` and propagate from here on, while this one still
      // delivers its set (see ``BindingCore/wrote(_:version:)``).
      schedulePoint("binding: let go with the set's record, delivering it")
    }
    if let persistence = target.persistence { persistence.wrote(made.update) }
    if made.turnTaken {
      // This thread holds the target's turn from the set on: the echo field it guards may
      // be written (see `leftEcho`). Otherwise the echo is recognized under the lock.
      if targetSide == .left { leftEcho = made.update.version } else { rightEcho = made.update.version }
    }
    withExtendedLifetime(target) {
      target.publish(made.update, from: made.snapshot, turnTaken: made.turnTaken)
    }
    return stillBusy
  }

  /// Propagates the pending side until none is left, holding `busy` until ``next()`` or a
  /// set's record lets go of it.
  @inlinable
  func work() {
    while let side = core.next() {
      guard let left, let right else {
        // One side has gone: the binding ends.
        core.dispose()
        return
      }
      let stillBusy =
        if side == .left {
          propagate(from: left, .left, to: right, .right, map)
        } else {
          propagate(from: right, .right, to: left, .left, reverse)
        }
      // Let go of `busy` with the record of its set: another thread may propagate now.
      if !stillBusy { return }
    }
  }

  @inlinable
  func propagate<X, Y>(
    from source: Property<X>, _ sourceSide: BindingCore.Side,
    to target: Property<Y>, _ targetSide: BindingCore.Side,
    _ transform: (X) -> Y
  ) -> Bool {
    let (value, version) = source.storage.withLock { ($0.state.value, $0.state.version) }
    // A propagation of its own: the set it carries was left pending, so this thread does
    // not know which propagation made it (a start is one too).
    let propagation = BindingPropagation(origin: source.storage.objectID, version: version)
    guard core.claim(sourceSide, version: version, in: propagation) else { return true }
    if BindingFrame.hasReached(target.storage.objectID, in: propagation) { return true }
    return send(transform(value), to: target, targetSide, in: propagation)
  }
}
