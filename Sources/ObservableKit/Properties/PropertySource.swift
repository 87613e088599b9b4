/// A source that has a current value, replays it to each new observer, and can be observed
/// for changes only.
///
/// ``Property`` and ``ReadOnlyProperty`` conform. ``map(_:)``, ``removeDuplicates()`` and
/// ``combineLatest(_:_:)`` on property sources produce read-only properties that keep these
/// three abilities.
public protocol PropertySource<Value>: EventSource {
  /// The current value.
  var value: Value { get }

  /// Registers `handler` for the values set from now on, without the replay of the current
  /// value that ``EventSource/observe(_:)`` makes.
  func observeChanges(_ handler: @escaping (Value) -> Void) -> any Disposable
}

extension PropertySource {
  /// The values set from now on, without the current value.
  public var changes: ReadOnlyEvent<Value> {
    ReadOnlyEvent { handler in observeChanges(handler) }
  }

  /// A view of this property that others can read and observe but not set.
  public var readOnly: ReadOnlyProperty<Value> {
    ReadOnlyProperty(self)
  }
}
