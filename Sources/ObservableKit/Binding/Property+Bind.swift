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
  @discardableResult
  public func bind(to target: Property<Value>) -> any Disposable {
    OneWayBinding.start(target) { handler in observe(handler) }
  }
}

extension SharedReadOnlyProperty {
  /// Sets `target` to this property's value now and at every change, on the notifying
  /// thread: a one-way binding. See ``ReadOnlyProperty/bind(to:)``.
  @discardableResult
  public func bind(to target: SharedProperty<Value>) -> any Disposable {
    OneWayBinding.start(target.property) { handler in
      // The target is a SharedProperty's: setting it from any thread is allowed.
      let send = UncheckedSendableHandler(handler)
      return observeNonisolated { send.handler($0) }
    }
  }
}

/// A source's subscription that sets a property, holding it weakly.
enum OneWayBinding {
  static func start<Value>(
    _ target: Property<Value>, observe: (@escaping (Value) -> Void) -> any Disposable
  ) -> any Disposable {
    let slot = DisposableSlot()
    let token = observe { [weak target] value in
      guard let target else { return slot.dispose() }
      target.value = value
    }
    slot.fill(token)
    return slot
  }
}

/// A handler that sets a ``SharedProperty``'s inner property, which is thread-safe.
struct UncheckedSendableHandler<Value>: @unchecked Sendable {
  // Made only by `SharedReadOnlyProperty.bind(to:)`, whose handler captures the inner
  // property of a SharedProperty (weakly) and a DisposableSlot: both safe from any thread.
  let handler: (Value) -> Void
  init(_ handler: @escaping (Value) -> Void) { self.handler = handler }
}
