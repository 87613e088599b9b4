import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// A disposable of the test's own, which logs its disposal.
private final class LoggingDisposable: Disposable, @unchecked Sendable {
  // `disposed` is only touched under `lock`.
  private let lock = NSLock()
  private var disposed = false
  private let name: String
  private let log: ValueLog<String>

  init(_ name: String, log: ValueLog<String>) {
    self.name = name
    self.log = log
  }

  func dispose() {
    lock.lock()
    let first = !disposed
    disposed = true
    lock.unlock()
    if first { log.record(name) }
  }

  var isDisposed: Bool {
    lock.lock()
    defer { lock.unlock() }
    return disposed
  }
}

@Suite("DisposeBag")
struct DisposeBagTests {
  @Test("Contract: dispose() disposes everything, in the order added")
  func disposesInOrder() {
    let log = ValueLog<String>()
    let bag = DisposeBag()
    for name in ["a", "b", "c"] { bag.addDisposable(LoggingDisposable(name, log: log)) }
    bag.dispose()
    #expect(log.values == ["a", "b", "c"])
    #expect(bag.isDisposed)
  }

  @Test("Contract: a bag disposes its contents when it deinitializes")
  func deinitDisposes() {
    let event = ObservableEvent<Int>()
    let counter = Tally()
    do {
      let bag = DisposeBag()
      event.observe { _ in counter.increment() }.disposeWith(bag)
      event.notifyObservers(1)
    }
    event.notifyObservers(2)
    #expect(counter.value == 1)
    #expect(!event.isObserved)
  }

  @Test("Contract: a disposable added after the bag was disposed is disposed at once")
  func addAfterDispose() {
    let log = ValueLog<String>()
    let bag = DisposeBag()
    bag.dispose()
    bag.addDisposable(LoggingDisposable("late", log: log))
    #expect(log.values == ["late"])
  }

  @Test("Contract: disposing a bag twice is a no-op")
  func disposeTwice() {
    let log = ValueLog<String>()
    let bag = DisposeBag()
    bag.addDisposable(LoggingDisposable("a", log: log))
    bag.dispose()
    bag.dispose()
    #expect(log.values == ["a"])
  }

  @Test("Contract: entries disposed elsewhere do not pile up in a long-lived bag")
  func prunesDisposedEntries() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let bag = DisposeBag()
    let keeper = event.observe { _ in }
    keeper.disposed(by: bag)
    for _ in 0..<10_000 {
      let token = event.observe { _ in }
      token.disposed(by: bag)
      token.dispose()
    }
    #expect(bag.entryCount <= DisposeBag.minimumPruneThreshold, "held \(bag.entryCount) entries for 1 live one")
    #expect(event.observerCount == 1)
    bag.dispose()
    #expect(keeper.isDisposed)
  }

  @Test("Contract: a bag stops all its subscriptions before releasing captured state or running other disposables")
  func stopsSubscriptionsFirst() {
    nonisolated(unsafe) let event = ObservableEvent<String>()
    let heard = ValueLog<String>()
    let tracker = LifetimeTracker()
    let bag = DisposeBag()
    // The first handler's captured state notifies the event when it deinitializes.
    Self.observe(event, capturing: tracker.make { event.notifyObservers("from deinit") }).disposed(by: bag)
    bag.addDisposable(CallbackDisposable { event.notifyObservers("from custom disposable") })
    event.observe(heard.handler).disposed(by: bag)
    bag.dispose()
    #expect(heard.values == [], "no sibling handler heard the teardown")
    #expect(tracker.liveCount == 0)
  }

  private static func observe(_ event: ObservableEvent<String>, capturing tracked: Tracked) -> any Disposable {
    event.observe { _ in tracked.touch() }
  }

  @Test("Contract: disposing a bag inside a handler is safe and stops the rest of the pass")
  func disposeBagInsideHandler() {
    let event = ObservableEvent<Int>()
    let bag = DisposeBag()
    let later = ValueLog<Int>()
    event.observe { _ in bag.dispose() }.disposed(by: bag)
    event.observe(later.handler).disposed(by: bag)
    event.notifyObservers(1)
    #expect(later.values == [])
    #expect(!event.isObserved)
  }

  @Test("Contract: a bag is thread-safe; concurrent adds and a dispose lose nothing")
  func concurrentAddAndDispose() {
    nonisolated(unsafe) let event = ObservableEvent<Int>()
    let bag = DisposeBag()
    race(threads: 4) { index in
      for _ in 0..<500 { event.observe { _ in }.disposed(by: bag) }
      if index == 0 { bag.dispose() }
    }
    bag.dispose()
    #expect(event.observerCount == 0, "every subscription ended, whether added before or after dispose")
  }

  @Test("a bag is a Disposable and can be nested in another bag")
  func nestedBags() {
    let event = ObservableEvent<Int>()
    let outer = DisposeBag()
    let inner = DisposeBag()
    event.observe { _ in }.disposed(by: inner)
    inner.disposed(by: outer)
    outer.dispose()
    #expect(inner.isDisposed)
    #expect(!event.isObserved)
  }
}

/// A disposable whose `isDisposed`, the first time a pruning bag asks it, blocks until the
/// test lets it go: it parks the pruning thread inside the prune's window.
private final class BlockingCheckDisposable: Disposable, @unchecked Sendable {
  // `disposed` and `hasBlocked` are only touched under `lock`.
  private let lock = NSLock()
  private var disposed = false
  private var hasBlocked = false
  let entered = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)

  func dispose() {
    lock.lock()
    disposed = true
    lock.unlock()
  }

  /// Whether it was disposed, without blocking.
  var disposedWithoutBlocking: Bool {
    lock.lock()
    defer { lock.unlock() }
    return disposed
  }

  var isDisposed: Bool {
    lock.lock()
    let blocks = !hasBlocked
    hasBlocked = true
    lock.unlock()
    if blocks {
      entered.signal()
      release.wait()
    }
    lock.lock()
    defer { lock.unlock() }
    return disposed
  }
}

@Suite("DisposeBag racing its prune")
struct DisposeBagPruneRaceTests {
  @Test("Regression: dispose() during a prune blocked in isDisposed disposes every entry before it returns")
  func disposeDuringBlockedPrune() {
    let bag = DisposeBag()
    let blocking = BlockingCheckDisposable()
    let others = (1..<DisposeBag.minimumPruneThreshold).map { _ in LoggingDisposable("entry", log: ValueLog()) }
    bag.addDisposable(blocking)
    for other in others.dropLast() { bag.addDisposable(other) }
    // The last entry reaches the prune size and starts a prune, which parks in
    // `blocking.isDisposed`.
    let pruner = Thread { bag.addDisposable(others.last!) }
    pruner.start()
    blocking.entered.wait()
    bag.dispose()
    let allDisposed = blocking.disposedWithoutBlocking && others.allSatisfy(\.isDisposed)
    blocking.release.signal()
    #expect(allDisposed, "every entry ever added is disposed once dispose() returns")
  }

  @Test("Regression: a bag of 8,191 subscriptions disposed while the 8,192nd is added: no handler runs after dispose() returns")
  func disposeRacingPruneWithLibraryTypes() {
    let rounds = 30
    let lateCalls = Tally()
    for _ in 0..<rounds {
      nonisolated(unsafe) let event = ObservableEvent<Int>()
      let bag = DisposeBag()
      let heard = Tally()
      for _ in 0..<8_191 { event.observe { _ in heard.increment() }.disposed(by: bag) }
      race(threads: 2) { index in
        if index == 0 {
          event.observe { _ in }.disposed(by: bag)
        } else {
          bag.dispose()
          event.notifyObservers(1)
          lateCalls.increment(by: heard.value)
        }
      }
    }
    #expect(lateCalls.value == 0)
  }
}
