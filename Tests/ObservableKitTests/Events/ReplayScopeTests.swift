import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// A value whose release the tests watch.
private final class Tracked: Sendable {
  let released: Guarded<Bool>
  init(_ released: Guarded<Bool>) { self.released = released }
  deinit { released.value = true }
}

private final class Screen {}

@Suite("Replay scope: replay(n, scope: .whileObserved) empties when the last observer ends")
struct ReplayScopeTests {
  @Test("scope: .forever is init(replay:): the values outlive every observer")
  func foreverKeeps() {
    let event = ObservableEvent<Int>(replay: 2, scope: .forever)
    event.observe { _ in }.dispose()
    event.notifyObservers(1)
    event.notifyObservers(2)
    var heard: [Int] = []
    let token = event.observe { heard.append($0) }
    #expect(heard == [1, 2])
    token.dispose()
    var again: [Int] = []
    event.observe { again.append($0) }.dispose()
    #expect(again == [1, 2], "nobody observing empties nothing")
  }

  @Test("whileObserved: the last dispose empties the replay; a comeback hears only new values")
  func lastDisposeEmpties() {
    let event = ObservableEvent<Int>(replay: 2, scope: .whileObserved)
    var first: [Int] = []
    let a = event.observe { first.append($0) }
    let b = event.observe { _ in }
    event.notifyObservers(1)
    event.notifyObservers(2)
    a.dispose()
    var second: [Int] = []
    let c = event.observe { second.append($0) }
    #expect(second == [1, 2], "an observer remained: the replay is kept")
    b.dispose()
    c.dispose()
    var comeback: [Int] = []
    let d = event.observe { comeback.append($0) }
    #expect(comeback.isEmpty, "the last observer ended: nothing from the last visit")
    event.notifyObservers(3)
    #expect(comeback == [3])
    d.dispose()
  }

  @Test("whileObserved: a value notified while nobody observes is not kept")
  func unobservedValueNotKept() {
    let event = ObservableEvent<Int>(replay: 3, scope: .whileObserved)
    event.notifyObservers(1)
    var heard: [Int] = []
    let token = event.observe { heard.append($0) }
    #expect(heard.isEmpty)
    token.dispose()
    event.notifyObservers(2)
    var later: [Int] = []
    event.observe { later.append($0) }.dispose()
    #expect(later.isEmpty)
  }

  @Test("whileObserved: a bag's disposal empties the replay and releases the values")
  func bagDisposalEmpties() {
    let released = Guarded(false)
    let event = ObservableEvent<Tracked>(replay: 1, scope: .whileObserved)
    var bag: DisposeBag? = DisposeBag()
    event.observe { _ in }.disposed(by: bag!)
    event.notifyObservers(Tracked(released))
    #expect(!released.value, "kept while observed")
    bag = nil
    #expect(released.value, "released when the bag ended the last subscription")
    _ = bag
  }

  @Test("whileObserved: an owner-bound subscription whose owner died counts once the event learns it")
  func deadOwnerCounts() {
    let event = ObservableEvent<Int>(replay: 1, scope: .whileObserved)
    var screen: Screen? = Screen()
    var heard: [Int] = []
    event.observe(with: screen!) { _, value in heard.append(value) }
    event.notifyObservers(1)
    #expect(heard == [1])
    screen = nil
    #expect(event.observerCount == 0, "the count learns that the owner has gone")
    var comeback: [Int] = []
    let token = event.observe { comeback.append($0) }
    #expect(comeback.isEmpty, "the dead owner was the last observer: the replay was emptied")
    token.dispose()
    _ = screen
  }

  @Test("whileObserved: a dead owner's subscription found by a notification leaves nothing behind")
  func deadOwnerFoundByValue() {
    let event = ObservableEvent<Int>(replay: 1, scope: .whileObserved)
    var screen: Screen? = Screen()
    event.observe(with: screen!) { _, _ in }
    screen = nil
    event.notifyObservers(1)
    var comeback: [Int] = []
    event.observe { comeback.append($0) }.dispose()
    #expect(comeback.isEmpty)
    _ = screen
  }

  @Test("SharedEvent(replay:scope: .whileObserved) empties when the last observer ends, and forever keeps")
  func sharedFamily() {
    let event = SharedEvent<Int>(replay: 1, scope: .whileObserved)
    let heard = Guarded<[Int]>([])
    let a = event.observeNonisolated { value in heard.withLock { $0.append(value) } }
    event.notifyObservers(1)
    let b = event.observeNonisolated { value in heard.withLock { $0.append(value) } }
    #expect(heard.value == [1, 1])
    a.dispose()
    b.dispose()
    let comeback = Guarded<[Int]>([])
    let c = event.observeNonisolated { value in comeback.withLock { $0.append(value) } }
    #expect(comeback.value.isEmpty)
    c.dispose()

    let forever = SharedEvent<Int>(replay: 1, scope: .forever)
    forever.observeNonisolated { _ in }.dispose()
    forever.notifyObservers(7)
    let kept = Guarded<[Int]>([])
    forever.observeNonisolated { value in kept.withLock { $0.append(value) } }.dispose()
    #expect(kept.value == [7])
  }

  @Test("whileObserved under concurrent observers: each value reaches every observer once")
  func concurrentObservers() async {
    let event = SharedEvent<Int>(replay: 4, scope: .whileObserved)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<200 {
            let token = event.observeNonisolated { _ in }
            event.notifyObservers(1)
            token.dispose()
          }
        }
      }
    }
    #expect(event.observerCount == 0)
    let comeback = Guarded<[Int]>([])
    event.observeNonisolated { value in comeback.withLock { $0.append(value) } }.dispose()
    #expect(comeback.value.isEmpty, "every observer ended: the replay is empty")
  }
}
