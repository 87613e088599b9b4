// Scenario 6's types: protocol observers on the compat layer (Flowduino Observable's API on
// ObservableKit) and the hand-written loop it is measured against.
//
// `IntObserver` is internal and `Counter` its only conformer, so whole-module optimization
// turns each `onValue` call through the protocol into the counter's add, in both contenders.
// A client module could not: the passes therefore loop over their values here, and are not
// `@inlinable`.

import Observable

/// The observer protocol of the compat scenarios.
protocol IntObserver: AnyObject {
  func onValue(_ value: Int)
}

/// An observer object doing the common handler's work.
public final class Counter: IntObserver, @unchecked Sendable {
  public let sink: Sink

  public init(_ sink: Sink) {
    self.sink = sink
  }

  @inlinable
  public func onValue(_ value: Int) {
    sink.slot.pointee &+= value
  }
}

/// A Flowduino-style observable object on the compat layer.
public final class CompatSubject: ObservableClass {
  /// One `withObservers` pass per value, in order.
  public func emit(_ values: Range<Int>) {
    for value in values {
      withObservers { (observer: IntObserver) in
        observer.onValue(value)
      }
    }
  }
}

/// A Flowduino-style keyed observable object on the compat layer.
public final class CompatKeyedSubject: KeyedObservableClass<Int> {
  /// One keyed pass per key, in order.
  public func emit(keys: Range<Int>) {
    for key in keys {
      withKeyedObservers(key: key) { (key: Int, observer: IntObserver) in
        observer.onValue(key)
      }
    }
  }
}

/// The hand-written loop the compat layer is measured against: weak boxes in an array, each
/// observer cast with `as?`. Not thread-safe, like Flowduino's `ObservableClass`.
struct WeakBox {
  weak var object: AnyObject?
}

public final class HandWrittenSubject {
  var boxes: ContiguousArray<WeakBox> = []

  public init() {}

  public func add(_ observer: AnyObject) {
    boxes.append(WeakBox(object: observer))
  }

  /// One pass per value, in order.
  public func emit(_ values: Range<Int>) {
    for value in values {
      for box in boxes {
        if let observer = box.object as? IntObserver {
          observer.onValue(value)
        }
      }
    }
  }
}

public final class HandWrittenKeyedSubject {
  var boxes: [Int: ContiguousArray<WeakBox>] = [:]

  public init() {}

  public func add(key: Int, _ observer: AnyObject) {
    boxes[key, default: []].append(WeakBox(object: observer))
  }

  /// One keyed pass per key, in order.
  public func emit(keys: Range<Int>) {
    for key in keys {
      guard let list = boxes[key] else { continue }
      for box in list {
        if let observer = box.object as? IntObserver {
          observer.onValue(key)
        }
      }
    }
  }
}
