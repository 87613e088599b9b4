@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
extension PropertySource {
  /// A read-only property holding the settled value: this property's value once it has not
  /// changed for `duration`.
  ///
  /// Its ``ReadOnlyProperty/value`` starts as this property's value when the operator is
  /// applied, and takes each debounced change; observers hear it at once, then each settled
  /// change. The result observes this property from the moment it is made until it and
  /// every subscription to it are released; one timer serves them all. Handlers run isolated
  /// to `isolation`, as for `debounce(for:clock:isolation:)`.
  public func debounce<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: isolated (any Actor) = #isolation
  ) -> ReadOnlyProperty<Value> {
    SettledProperty.make(initial: value, from: changes.debounce(for: duration, clock: clock))
  }

  /// A read-only property holding the last value the throttle let through; see
  /// `throttle(for:clock:latest:isolation:)` and
  /// `debounce(for:clock:isolation:)` for its lifetime.
  public func throttle<C: Clock>(
    for interval: C.Duration,
    clock: C = ContinuousClock(),
    latest: Bool,
    isolation: isolated (any Actor) = #isolation
  ) -> ReadOnlyProperty<Value> {
    SettledProperty.make(initial: value, from: changes.throttle(for: interval, clock: clock, latest: latest))
  }

  /// A read-only property that takes each value `duration` after this property took it;
  /// see `debounce(for:clock:isolation:)` for its lifetime.
  public func delay<C: Clock>(
    for duration: C.Duration,
    clock: C = ContinuousClock(),
    isolation: isolated (any Actor) = #isolation
  ) -> ReadOnlyProperty<Value> {
    SettledProperty.make(initial: value, from: changes.delay(for: duration, clock: clock))
  }
}

/// A time operator's result on a property: a ``Property`` fed by the operator's
/// subscription, which lasts while the result or any subscription to it is alive.
enum SettledProperty {
  /// Ends the feeding subscription when the last holder lets go.
  final class Feed: Sendable {
    let token: any Disposable

    init(_ token: any Disposable) {
      self.token = token
    }

    deinit {
      token.dispose()
    }
  }

  /// A subscription to the result, which keeps the feed alive until it is disposed.
  final class Subscription: Disposable {
    let token: any Disposable
    private let feed: Locked<Feed?>

    init(_ token: any Disposable, feed: Feed) {
      self.token = token
      self.feed = Locked(feed)
    }

    func dispose() {
      token.dispose()
      // Released outside the lock: the last release ends the feeding subscription.
      let feed = feed.withLock { feed in
        defer { feed = nil }
        return feed
      }
      withExtendedLifetime(feed) {}
    }

    var isDisposed: Bool { token.isDisposed }
  }

  static func make<Value>(initial: Value, from events: ReadOnlyEvent<Value>) -> ReadOnlyProperty<Value> {
    let settled = Property(initial)
    let feed = Feed(events.observe { settled.value = $0 })
    return ReadOnlyProperty(
      value: { withExtendedLifetime(feed) { settled.value } },
      observe: { Subscription(settled.observe($0), feed: feed) },
      observeChanges: { Subscription(settled.observeChanges($0), feed: feed) }
    )
  }
}
