/// A FIFO of values waiting for an asynchronous delivery: O(1) append and O(1) pop, so a
/// backlog of n values drains in O(n), not O(n²) as `removeFirst()` on an array would.
@usableFromInline
struct DeliveryBuffer<Value> {
  @usableFromInline var storage: ContiguousArray<Value> = []
  @usableFromInline var head = 0

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { head >= storage.count }

  @inlinable
  mutating func append(_ value: Value) {
    storage.append(value)
  }

  /// Removes and returns the oldest value. The buffer's memory is reclaimed when it empties,
  /// or once the consumed prefix is at least half of it.
  @inlinable
  mutating func popFirst() -> Value? {
    guard head < storage.count else { return nil }
    let value = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return value
  }
}

extension DeliveryBuffer: Sendable where Value: Sendable {}
