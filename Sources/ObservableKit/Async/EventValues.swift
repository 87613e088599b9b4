/// The values of an ``EventSource`` as an async sequence; see ``EventSource/values``.
///
/// The subscription belongs to the iterator: it starts when a loop starts iterating, and
/// ends when that loop ends, its task is cancelled, or the iterator is released. A
/// property's sequence therefore starts with the value current when the loop starts. Each
/// loop over the same sequence has its own subscription. The sequence of a ``SharedEvent``
/// made from an async sequence finishes when that sequence ends; other sources never end.
public struct EventValues<Element: Sendable>: AsyncSequence {
  private let subscribe: (@escaping @Sendable (Element) -> Void) -> any Disposable
  private let bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy
  private let onDrop: (@Sendable (Element) -> Void)?
  /// Registers a call for the end of a ``SharedEvent`` made from an async sequence, after
  /// which the sequence finishes; nil for a source that never ends.
  private var subscribeToEnd: ((@escaping @Sendable () -> Void) -> any Disposable)?

  init<Source: EventSource>(
    _ source: Source,
    bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
    onDrop: (@Sendable (Element) -> Void)? = nil
  ) where Source.Value == Element {
    subscribe = { source.observe($0) }
    self.bufferingPolicy = bufferingPolicy
    self.onDrop = onDrop
  }

  init<Source: SharedEventSource>(
    _ source: Source,
    bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy,
    onDrop: (@Sendable (Element) -> Void)? = nil
  ) where Source.Value == Element {
    subscribe = { source.observeNonisolated($0) }
    self.bufferingPolicy = bufferingPolicy
    self.onDrop = onDrop
    // The one source that ends: an event made from an async sequence. Its end is announced
    // after its last value was notified, so the stream finishes after yielding it.
    if let ending = (source as? SharedEvent<Element>)?.iteration {
      subscribeToEnd = { finish in ending.ended.observeNonisolated { _ in finish() } }
    }
  }

  /// Subscribes to the source and returns an iterator over what it delivers from now on.
  public func makeAsyncIterator() -> Iterator {
    let onDrop = onDrop
    let stream = AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
      let token = subscribe { value in
        // A bounded buffer reports the value it did not keep; `onDrop` hears it, outside
        // the stream's lock.
        if case .dropped(let dropped) = continuation.yield(value) { onDrop?(dropped) }
      }
      let end = subscribeToEnd? { continuation.finish() }
      continuation.onTermination = { _ in
        token.dispose()
        end?.dispose()
      }
    }
    return Iterator(base: stream.makeAsyncIterator())
  }

  /// Iterates the values of one subscription.
  public struct Iterator: AsyncIteratorProtocol {
    private var base: AsyncStream<Element>.Iterator

    init(base: AsyncStream<Element>.Iterator) {
      self.base = base
    }

    /// The next value; nil once the task is cancelled.
    public mutating func next() async -> Element? {
      await base.next()
    }
  }
}
