import Observable
import ObservableKit
import Testing
import TestSupport

#if !canImport(Combine)
import Foundation

/// The stand-in for `ObservableObject.objectWillChange` where Combine does not exist.
@Suite("objectWillChange and notifyChange()")
struct ObjectWillChangeTests {
  @Test("objectWillChange.send() calls its handlers synchronously, in order")
  func sendIsSynchronous() {
    let observable = ObservableThreadSafeClass()
    let log = Guarded<[String]>([])
    let first = observable.objectWillChange.observe { log.withLock { $0.append("first") } }
    let second = observable.objectWillChange.observe { log.withLock { $0.append("second") } }
    observable.objectWillChange.send()
    #expect(log.value == ["first", "second"])

    first.dispose()
    observable.objectWillChange.send()
    #expect(log.value == ["first", "second", "second"])
    second.dispose()
  }

  @Test("await notifyChange() sends on the main actor before it returns")
  func asyncNotifyChange() async {
    let observable = ObservableThreadSafeClass()
    let sends = Guarded(0)
    let token = observable.objectWillChange.observe {
      MainActor.assertIsolated("objectWillChange was sent off the main actor")
      sends.withLock { $0 += 1 }
    }
    await observable.notifyChange()
    #expect(sends.value == 1)
    token.dispose()
  }

  @Test("notifyChange() returns at once and sends later, on the main actor")
  @MainActor  // so the send it schedules cannot run before the test suspends
  func syncNotifyChange() async {
    let observable = ObservableClass()
    let sends = Guarded(0)
    let returnedFirst = Guarded(false)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      // The publisher lives as long as the observable; the subscription with it.
      _ = observable.objectWillChange.observe {
        MainActor.assertIsolated("objectWillChange was sent off the main actor")
        sends.withLock { $0 += 1 }
        continuation.resume()
      }
      observable.notifyChange()  // in this synchronous closure, the synchronous overload
      returnedFirst.withLock { $0 = sends.value == 0 }
    }
    #expect(sends.value == 1)
    #expect(returnedFirst.value, "notifyChange() sent before it returned")
  }

  #if DEBUG
  /// The leak check names an `objectWillChange.observe` left open by the caller's line,
  /// never by a line of the compatibility module.
  @Test func aPublisherSubscriptionIsNamedByTheCallersLine() {
    let publisher = ObservableObjectPublisher()
    let sites = Guarded<[String]>([])
    var line = 0
    let token = SubscriptionSites.$log.withValue({ _, fileID, line in
      sites.withLock { $0.append("\(fileID):\(line)") }
    }) {
      line = #line; return publisher.observe {}
    }
    #expect(sites.value == ["ObservableTests/ObjectWillChangeTests.swift:\(line)"])
    token.dispose()
  }
  #endif
}

#else
import Combine

/// Combine's publisher, stored by the class (scripts/check-apple-branches.sh runs the same
/// checks on Linux against a stand-in Combine).
@Suite("objectWillChange and notifyChange()")
@MainActor
struct ObjectWillChangeTests {
  @Test("objectWillChange is one stored publisher, whose send() and notifyChange() reach a subscriber")
  func storedPublisherReachesSubscriber() async {
    let observable = ObservableClass()
    #expect(observable.objectWillChange === observable.objectWillChange)
    var sends = 0
    let subscription = observable.objectWillChange.sink { sends += 1 }
    observable.objectWillChange.send()
    #expect(sends == 1)
    await observable.notifyChange()
    #expect(sends == 2)
    subscription.cancel()
  }
}
#endif
