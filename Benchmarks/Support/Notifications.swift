// Scenario 11's NotificationCenter handlers and the counting handler of its no-payload row,
// shared by the suite and the instruction-count tool. The only file of BenchmarkSupport that
// imports Foundation; the library itself never does.

import Foundation

/// The key under which the NotificationCenter rows post their `Int` payload in `userInfo`:
/// NotificationCenter has no typed payload, so this is how a value travels with a post.
public let notificationValueKey = "value"

/// The common handler's work for a NotificationCenter observer: reads the `Int` from the
/// notification's `userInfo` and adds it to the sink. Not inlined, so each call makes a fresh
/// closure context, as `makeHandler` does.
@inline(never)
public func makeNotificationHandler(_ sink: Sink) -> @Sendable (Notification) -> Void {
  { notification in
    sink.slot.pointee &+= notification.userInfo![notificationValueKey] as! Int
  }
}

/// A NotificationCenter observer for a post without payload: adds 1 to the sink.
@inline(never)
public func makeNotificationCounter(_ sink: Sink) -> @Sendable (Notification) -> Void {
  { _ in sink.slot.pointee &+= 1 }
}

/// A handler for a message without payload (`HubMessage<Void>`, `BaselineEvent<Void>`): adds 1
/// to the sink.
@inline(never)
public func makeCounter(_ sink: Sink) -> @Sendable (()) -> Void {
  { _ in sink.slot.pointee &+= 1 }
}

/// The sender of the sender-filter rows, for the hub's `from:` and NotificationCenter's
/// `object:` alike.
public final class Sender: @unchecked Sendable {
  public init() {}
}

/// The baseline of the no-payload row: a `BaselineEvent<Void>` with `observers` counters. It and
/// its loop are here, not at the call sites, so that the suite and the instruction-count tool
/// do not specialize the baseline for `Void` beside their `Int` rows (identical thunks get
/// merged, which moved other baseline rows by a few instructions).
public func makeVoidBaseline(observers: Int, _ sink: Sink) -> BaselineEvent<Void> {
  let event = BaselineEvent<Void>()
  for _ in 0..<observers { _ = event.add(makeCounter(sink)) }
  return event
}

/// `count` notifications of a `BaselineEvent<Void>`.
@inline(never)
public func notifyVoid(_ event: BaselineEvent<Void>, _ count: Int) {
  for _ in 0..<count { event.notify(()) }
}
