import Foundation
import Testing
import TestSupport

@testable import ObservableKit

@Suite("Disposable")
struct DisposableTests {
  @Test("Contract: dispose is idempotent and isDisposed reports it")
  func idempotent() {
    let event = ObservableEvent<Int>()
    let token = event.observe { _ in }
    #expect(!token.isDisposed)
    token.dispose()
    token.dispose()
    #expect(token.isDisposed)
    #expect(event.observerCount == 0)
  }

  @Test("Contract: dropping a disposable does not end the subscription")
  func droppingKeepsSubscription() {
    let event = ObservableEvent<Int>()
    let counter = Tally()
    do {
      _ = event.observe { _ in counter.increment() }
    }
    event.notifyObservers(1)
    #expect(counter.value == 1)
    #expect(event.observerCount == 1)
  }

  @Test("Contract: dispose is thread-safe; racing disposals end the subscription exactly once")
  func concurrentDispose() {
    let event = ObservableEvent<Int>()
    let others = (0..<3).map { _ in event.observe { _ in } }
    let token = event.observe { _ in }
    race(threads: 8) { _ in token.dispose() }
    #expect(token.isDisposed)
    #expect(event.observerCount == 3)
    others.forEach { $0.dispose() }
  }

  @Test("Contract: once dispose returns on another thread, notifications that begin later skip the handler")
  func disposeFromAnotherThread() {
    let event = ObservableEvent<Int>()
    let counter = Tally()
    let token = event.observe { _ in counter.increment() }
    withWatchdog("dispose on another thread") { token.dispose() }
    event.notifyObservers(1)
    #expect(counter.value == 0)
  }

  @Test("disposedBy and disposeWith add the token to a bag")
  func bagSpellings() {
    let event = ObservableEvent<Int>()
    let bag = DisposeBag()
    event.observe { _ in }.disposeWith(bag)
    event.observe { _ in }.disposed(by: bag)
    #expect(event.observerCount == 2)
    bag.dispose()
    #expect(event.observerCount == 0)
  }
}
