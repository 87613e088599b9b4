extension Property {
  /// Keeps `other` equal to this property, both ways: `other` takes this property's value
  /// now, and from then on a set on either side reaches the other once.
  ///
  /// ```swift
  /// let disposable = a.bind(to: b)   // b.value == a.value
  /// b.value = 3                       // a.value == 3, each side notified once
  /// ```
  ///
  /// - No echo: the set the binding makes on one side does not come back to the first.
  /// - A handler may set either side while a change propagates; the last write wins, both
  ///   sides end equal, and every observer sees the sets in order (nothing is dropped).
  /// - Both sides are held weakly: the binding ends when either goes away (at the other's
  ///   next set), and when the returned disposable is disposed, both ways, before
  ///   `dispose()` returns. Dropping the disposable does not end it.
  /// - Cycles end: in a ring of bindings (`a↔b`, `b↔c`, `c↔a`, of any length, also through
  ///   one-way binds), a set reaches each property at most once and the propagation stops
  ///   where it started; the bind that closes a ring returns, its start carried round once.
  ///   A mapped ring should compose to the identity, or one binding's sides end unequal.
  /// - `a.bind(to: a)` is a no-op: the returned disposable is already disposed.
  ///
  /// The handlers of a side run where its sets run: synchronously on the setting thread, in
  /// this property's isolation domain. Bind only properties of one domain; to bind across
  /// domains, bind ``SharedProperty`` values.
  @inlinable @discardableResult
  public func bind(to other: Property<T>) -> any Disposable {
    PropertyBinding.start(self, other, map: { $0 }, reverse: { $0 })
  }

  /// Keeps `other` equal to this property through a mapping, both ways: `other` takes
  /// `map(value)` now; a set here sets `other` to `map` of it, and a set of `other` sets
  /// this property to `reverse` of it. See ``bind(to:)``.
  ///
  /// ```swift
  /// let celsius = Property(20.0), fahrenheit = Property(68.0)
  /// celsius.bind(to: fahrenheit, map: { $0 * 9 / 5 + 32 }, reverse: { ($0 - 32) * 5 / 9 })
  /// ```
  ///
  /// A set reaches the other side once and never comes back, so a lossy pair (where
  /// `reverse(map(x))` is not `x`) neither loops nor changes the side that was set.
  @discardableResult
  public func bind<Other>(
    to other: Property<Other>, map: @escaping (T) -> Other, reverse: @escaping (Other) -> T
  ) -> any Disposable {
    PropertyBinding.start(self, other, map: map, reverse: reverse)
  }
}

extension SharedProperty {
  /// Keeps `other` equal to this property, both ways, from any thread; see
  /// ``Property/bind(to:)``.
  ///
  /// Propagation runs synchronously on the thread of the set, one thread at a time per
  /// binding; a set made while another thread propagates is propagated by that thread
  /// before it returns from its set. Concurrent sets on the two sides leave them equal: the
  /// one the binding sees last wins on both, and an earlier one it supersedes is not sent
  /// across (each side's observers still see its own sets, in order, without duplicates).
  @inlinable @discardableResult
  public func bind(to other: SharedProperty<T>) -> any Disposable {
    PropertyBinding.start(property, other.property, map: { $0 }, reverse: { $0 })
  }

  /// Keeps `other` equal to this property through a mapping, both ways, from any thread;
  /// see ``Property/bind(to:map:reverse:)`` and ``bind(to:)``.
  @discardableResult
  public func bind<Other: Sendable>(
    to other: SharedProperty<Other>,
    map: @escaping @Sendable (T) -> Other,
    reverse: @escaping @Sendable (Other) -> T
  ) -> any Disposable {
    PropertyBinding.start(property, other.property, map: map, reverse: reverse)
  }
}

extension ReadOnlyProperty {
  /// Sets `target` to this property's value now and at every change: a one-way binding.
  ///
  /// `target` is held weakly: the binding ends when it goes away (at the next change) or
  /// when the returned disposable is disposed.
  ///
  /// A set it makes is not made into a property that the set it carries has already
  /// reached, so a ring (`a.readOnly.bind(to: b)`, `b` to `c`, `c` to `a`) ends, each
  /// property set at most once. A view of `target` itself (`target.readOnly`,
  /// `target.map { … }`) bound into `target` would feed its own sets back: like
  /// `target.bind(to: target)` it is a no-op, and the returned disposable is already
  /// disposed.
  @discardableResult
  public func bind(to target: Property<Value>) -> any Disposable {
    OneWayBinding.start(target) { handling in
      observe { [weak target] value in handling.deliver(value, to: target) }
    }
  }
}

extension SharedReadOnlyProperty {
  /// Sets `target` to this property's value now and at every change, on the notifying
  /// thread: a one-way binding. See ``ReadOnlyProperty/bind(to:)``: rings end, and a view of
  /// `target` bound into it is a no-op.
  @discardableResult
  public func bind(to target: SharedProperty<Value>) -> any Disposable {
    OneWayBinding.start(target.property) { handling in
      // The handler holds the SharedProperty, which may be set from any thread, so it is
      // `@Sendable` as it stands.
      observeNonisolated { [weak target] value in handling.deliver(value, to: target?.property) }
    }
  }
}

/// A source's subscription that sets a property, holding it weakly.
///
/// It carries propagations as two-way bindings do (see ``BindingPropagation``): it does not
/// set a target that the propagation it is carrying has reached, so a ring of one-way
/// bindings ends, and a view of the target bound into it (`a.readOnly.bind(to: a)`,
/// `a.map { … }.bind(to: a)`) never sets it: its source's pass is the target's own.
enum OneWayBinding {
  /// What a subscription's handler keeps. Its lock guards it: a shared source may deliver on
  /// any thread (one thread at a time, but a replay left for another thread may run while
  /// `start` still runs).
  struct State: Sendable {
    /// The set whose propagation the handler last joined: the target and version of the
    /// binding frame it found under the pass.
    var joined: (ObjectIdentifier, UInt64)?
    /// Whether `start` has returned.
    var started = false
    /// Whether the handler heard the target's own pass: the source is a view of the target.
    var boundToItself = false
  }

  /// What a binding's handler keeps besides its target, which each family's handler holds
  /// weakly in its own way (a confined handler the `Property`, a shared one the
  /// `SharedProperty`, so that it is `@Sendable`).
  struct Handling: Sendable {
    let slot = DisposableSlot()
    let targetID: ObjectIdentifier
    let state = Locked(State())

    /// Carries `value` to `target` (nil once it has gone: the binding then ends).
    func deliver<Value>(_ value: Value, to target: Property<Value>?) {
      guard let target else { return slot.dispose() }
      let heard = BindingFrame.delivery()
      if heard.storage == targetID {
        // The source delivers from the target's own pass: it is a view of the target, and
        // setting the target from it would feed its own sets back for ever.
        state.withLock { if !$0.started { $0.boundToItself = true } }
        return
      }
      let propagation: BindingPropagation
      if let setBy = heard.setBy,
        state.withLock({ state in
          // The first time this handler hears the frame's set: later ones in the same
          // pass are sets queued behind it, which start propagations of their own.
          if let last = state.joined, last == (setBy.1, setBy.2) { return false }
          state.joined = (setBy.1, setBy.2)
          return true
        })
      {
        propagation = setBy.0
      } else {
        propagation = .oneWay(from: heard.storage)
      }
      if BindingFrame.hasReached(targetID, in: propagation) { return }
      OneWayBinding.set(value, of: target, targetID, in: propagation)
    }
  }

  /// Starts a binding into `target`: `observe` subscribes a handler that calls the given
  /// ``Handling/deliver(_:to:)`` with each value.
  static func start<Value>(_ target: Property<Value>, observe: (Handling) -> any Disposable) -> any Disposable {
    let handling = Handling(targetID: target.storage.objectID)
    let token = PassFrame.withFrame(owner: BindingFrame.startMarker, queue: nil) { observe(handling) }
    handling.slot.fill(token)
    if handling.state.withLock({ $0.started = true; return $0.boundToItself }) {
      // A defined no-op, as `a.bind(to: a)` is: nothing stays subscribed.
      handling.slot.dispose()
    }
    return handling.slot
  }

  /// `target.value = value`, made in `propagation`: a frame on this thread names the set,
  /// and the version it gives the target, while it is made and delivered.
  static func set<Value>(
    _ value: Value, of target: Property<Value>, _ targetID: ObjectIdentifier, in propagation: BindingPropagation
  ) {
    precondition(
      !PassFrame.isModifying(targetID),
      "Property.modify: the closure must change its inout argument, not set the property itself"
    )
    BindingFrame.pushed(propagation, target: targetID) { frame in
      let made = target.commit { state in
        frame.pointee.version = state.version + 1
        return state.replace(with: value)
      }!
      if let persistence = target.persistence { persistence.wrote(made.update) }
      withExtendedLifetime(target) {
        target.publish(made.update, from: made.snapshot, turnTaken: made.turnTaken)
      }
    }
  }
}

