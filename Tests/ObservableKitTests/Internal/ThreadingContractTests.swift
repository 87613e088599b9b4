import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// The rules of the *Threads* and *Disposal* sections that need two threads to observe.
@Suite("Threading contract")
struct ThreadingContractTests {
  /// Compiles only if `T` is `Sendable`.
  private static func requireSendable<T: Sendable>(_: T.Type) {}

  @Test("Contract: Disposable, DisposeBag, SharedEvent and SharedProperty are Sendable")
  func sendability() {
    Self.requireSendable((any Disposable).self)
    Self.requireSendable(DisposeBag.self)
    Self.requireSendable(SharedEvent<Int>.self)
    Self.requireSendable(SharedProperty<Int>.self)
  }

  @Test("Contract: notifications from different threads are delivered concurrently, each on its own thread")
  func concurrentDelivery() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let bothInside = DispatchGroup()
    bothInside.enter()
    bothInside.enter()
    let met = Tally()
    let token = event.observe { _ in
      bothInside.leave()
      // Returns only once the other thread is inside the handler too: a library that
      // serialized deliveries would time out here.
      if bothInside.wait(timeout: .now() + 10) == .success { met.increment() }
    }
    race(threads: 2) { index in event.notifyObservers(index) }
    #expect(met.value == 2)
    token.dispose()
  }

  @Test("Contract: dispose does not wait for a call that began on another thread")
  func disposeDoesNotWait() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let token = event.observe { _ in
      entered.signal()
      release.wait()
    }
    let notifier = Thread { event.notifyObservers(1) }
    notifier.start()
    entered.wait()
    let returned = Guarded(false)
    withWatchdog("dispose while the handler runs on another thread") {
      token.dispose()
      returned.value = true
    }
    release.signal()
    #expect(returned.value)
    #expect(token.isDisposed)
  }

  @Test("Contract: a newer value for a property handler busy on another thread is delivered by that thread after the call; the setter does not wait")
  func propertyHandOff() {
    let calls = ValueLog<String>()
    let deliveredTwo = DispatchSemaphore(value: 0)
    let blocked = BlockedDelivery { value in
      calls.record("\(value) on \(currentThreadID())")
      if value == 2 { deliveredTwo.signal() }
    }
    let setterA = blocked.start()
    let setterReturned = Guarded(false)
    withWatchdog("a set while the handler is busy on another thread") {
      blocked.property.value = 2
      setterReturned.value = true
    }
    #expect(setterReturned.value, "the setter did not wait for the busy handler")
    #expect(calls.values.count == 2, "2 was not delivered yet: it waits for the busy call")
    blocked.release()
    #expect(deliveredTwo.wait(timeout: .now() + 10) == .success)
    #expect(calls.values == ["0 on \(currentThreadID())", "1 on \(setterA)", "2 on \(setterA)"])
  }

  @Test("Contract: one thread at a time delivers a property; a set made meanwhile returns at once and the delivering thread delivers it to every handler")
  func propertyOneDeliveringThread() {
    let blocked = BlockedDelivery()
    let finished = DispatchSemaphore(value: 0)
    let second = ValueLog<String>()
    let token = blocked.property.observe { value in
      second.record("\(value) on \(currentThreadID())")
      if value == 2 { finished.signal() }
    }
    let setter = blocked.start()
    withWatchdog("a set while another thread delivers") {
      blocked.property.value = 2
    }
    #expect(blocked.property.value == 2, "the set took effect at once")
    #expect(second.values == ["0 on \(currentThreadID())"], "the set left its delivery to the delivering thread")
    blocked.release()
    #expect(finished.wait(timeout: .now() + 10) == .success)
    #expect(second.values == ["0 on \(currentThreadID())", "1 on \(setter)", "2 on \(setter)"])
    token.dispose()
  }

  @Test("Contract: observe while another thread delivers returns at once; that thread replays the current value to the new handler, and only to it")
  func propertyReplayWhileAnotherThreadDelivers() {
    let old = ValueLog<Int>()
    let blocked = BlockedDelivery { old.record($0) }
    let setter = blocked.start()
    let replayed = DispatchSemaphore(value: 0)
    let fresh = ValueLog<String>()
    let token = Guarded<(any Disposable)?>(nil)
    withWatchdog("observe while another thread delivers") {
      token.value = blocked.property.observe { value in
        fresh.record("\(value) on \(currentThreadID())")
        replayed.signal()
      }
    }
    #expect(fresh.values.isEmpty, "the replay waits for the delivering thread")
    blocked.release()
    #expect(replayed.wait(timeout: .now() + 10) == .success)
    #expect(fresh.values == ["1 on \(setter)"])
    #expect(old.values == [0, 1], "the replay pass reached no handler that had seen the value")
    token.value?.dispose()
  }

  @Test("Contract: a property handler is never called concurrently with itself")
  func propertyHandlerNeverOverlaps() {
    nonisolated(unsafe) let property = Property(0)
    let inside = Tally()
    let overlaps = Tally()
    let token = property.observe { _ in
      inside.increment()
      if inside.value > 1 { overlaps.increment() }
      inside.increment(by: -1)
    }
    race(threads: 4) { index in
      for round in 0..<2_000 { property.value = round * 4 + index }
    }
    #expect(overlaps.value == 0)
    token.dispose()
  }

  @Test("Contract: a bag runs custom disposables outside its lock; they may use the bag")
  func customDisposableOutsideBagLock() {
    let usedBag = Guarded(false)
    withWatchdog("a custom disposable calling its bag") {
      let bag = DisposeBag()
      let other = DisposeBag()
      bag.addDisposable(CallbackDisposable {
        _ = bag.isDisposed
        other.disposed(by: bag)  // disposed at once: the bag is disposed
        usedBag.value = other.isDisposed
      })
      bag.dispose()
    }
    #expect(usedBag.value)
  }

  @Test("Contract: releasing the last reference to a property while it notifies finishes the pass; nothing leaks")
  func releasePropertyWhileNotifying() {
    let tracker = LifetimeTracker()
    let second = ValueLog<Int>()
    do {
      let holder = Guarded<Property<Int>?>(Property(0))
      let tracked = tracker.make()
      let first = holder.value!.observe { value in if value == 1 { holder.value = nil } }
      let other = holder.value!.observe { value in tracked.touch(); second.record(value) }
      holder.value!.value = 1
      #expect(holder.value == nil)
      #expect(first.isDisposed && other.isDisposed)
    }
    #expect(second.values == [0, 1])
    #expect(tracker.liveCount == 0)
  }
}

/// A property whose first observer blocks in its call for the value 1 until ``release()``,
/// so that another thread holds the property's turn meanwhile.
private final class BlockedDelivery: Sendable {
  nonisolated(unsafe) let property = Property(0)
  private let entered = DispatchSemaphore(value: 0)
  private let released = DispatchSemaphore(value: 0)
  private let token = Guarded<(any Disposable)?>(nil)

  /// `onValue` runs in the blocking observer's every call, before it blocks.
  init(onValue: @escaping @Sendable (Int) -> Void = { _ in }) {
    token.value = property.observe { [entered, released] value in
      onValue(value)
      if value == 1 {
        entered.signal()
        released.wait()
      }
    }
  }

  deinit {
    token.value?.dispose()
  }

  /// Sets 1 on a new thread; returns that thread's id once the observer is blocked in it.
  func start() -> UInt {
    let setter = Guarded<UInt>(0)
    Thread {
      setter.value = currentThreadID()
      self.property.value = 1
    }.start()
    entered.wait()
    return setter.value
  }

  /// Lets the blocked call return.
  func release() {
    released.signal()
  }
}
