import Observable
import Testing
import TestSupport

/// The contract of `Observable`, run against every family (plain, thread-safe, thread, and
/// their keyed variants).
@Suite("Observer behaviour")
struct BehaviourTests {
  @Test("Observers are called in subscription order", arguments: Family.allCases)
  func subscriptionOrder(family: Family) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b, c) = (Recorder("a", log: log), Recorder("b", log: log), Recorder("c", log: log))
    observable.addObserver(a)
    observable.addObserver([b, c])

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["a", "b", "c"])

    // Adding again keeps the place; removing and adding again moves to the end.
    observable.addObserver(a)
    observable.removeObserver(b)
    observable.addObserver(b)
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["a", "c", "b"])
  }

  @Test("Adding an observer twice is one subscription", arguments: Family.allCases)
  func idempotentAdd(family: Family) {
    let observable = family.make()
    let counter = Counter()
    observable.addObserver(counter)
    observable.addObserver(counter)
    observable.addObserver([counter, counter])

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(counter.count == 1)
    #expect(census(observable) == .init(observers: 1, keys: 0, subscriptions: 1))

    observable.removeObserver(counter)
    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(counter.count == 1)
    #expect(census(observable) == .init(observers: 0, keys: 0, subscriptions: 0))
  }

  @Test("Removing an observer that was never added does nothing", arguments: Family.allCases)
  func removeStranger(family: Family) {
    let observable = family.make()
    let (member, stranger) = (Counter(), Counter())
    observable.addObserver(member)

    observable.removeObserver(stranger)
    observable.removeObserver([stranger, Counter()])
    observable.removeObserver(member)
    observable.removeObserver(member)
    observable.addObserver(member)

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(member.count == 1)
    #expect(stranger.count == 0)
  }

  @Test("Observers are held weakly and pruned once deallocated", arguments: Family.allCases)
  func weakRelease(family: Family) {
    let observable = family.make()
    let survivor = Counter()
    weak var released: Counter?
    do {
      let transient = Counter()
      released = transient
      observable.addObserver(transient)
      observable.addObserver(survivor)
    }
    #expect(released == nil, "the observable must not keep its observers alive")
    #expect(census(observable).observers == 2, "not pruned before a pass reaches it")

    var reached = 0
    observable.withObservers { (observer: Ping) in
      reached += 1
      observer.ping("")
    }
    #expect(reached == 1)
    #expect(survivor.count == 1)
    #expect(census(observable) == .init(observers: 1, keys: 0, subscriptions: 1))
  }

  @Test("A pass filters observers by the protocol its closure names", arguments: Family.allCases)
  func filtersByType(family: Family) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let pingOnly = PingOnly()
    let both = Recorder("both", log: log)
    observable.addObserver(pingOnly)
    observable.addObserver(both)

    var pings = 0, pongs = 0, objects = 0, recorders = 0, integers = 0
    observable.withObservers { (_: Ping) in pings += 1 }
    observable.withObservers { (_: Pong) in pongs += 1 }
    observable.withObservers { (_: AnyObject) in objects += 1 }
    observable.withObservers { (_: Recorder) in recorders += 1 }
    observable.withObservers { (_: Int) in integers += 1 }
    #expect([pings, pongs, objects, recorders, integers] == [2, 1, 2, 1, 0])
  }

  @Test("An observer removed during a pass is not called by the rest of it", arguments: Family.allCases)
  func removeDuringPass(family: Family) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b, c) = (Recorder("a", log: log), Recorder("b", log: log), Recorder("c", log: log))
    observable.addObserver([a, b, c])
    a.onPing = { [unowned observable, unowned b] _ in observable.removeObserver(b) }
    c.onPing = { [unowned observable, unowned c] _ in observable.removeObserver(c) }

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["a", "c"])

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["a"])
  }

  @Test("An observer added during a pass is first called by the next one", arguments: Family.allCases)
  func addDuringPass(family: Family) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b, late) = (Recorder("a", log: log), Recorder("b", log: log), Recorder("late", log: log))
    observable.addObserver([a, b])
    a.onPing = { [unowned observable, unowned late, unowned a] _ in
      observable.addObserver(late)
      a.onPing = nil
    }

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["a", "b"])

    observable.withObservers { (observer: Ping) in observer.ping("") }
    #expect(names(of: log) == ["a", "b", "late"])
  }

  @Test("A nested pass runs to completion inside the callback that starts it", arguments: Family.allCases)
  func nestedPasses(family: Family) {
    let observable = family.make()
    let log = Guarded<[String]>([])
    let (a, b) = (Recorder("a", log: log), Recorder("b", log: log))
    observable.addObserver([a, b])
    a.onPing = { [unowned observable] tag in
      guard tag == "outer" else { return }
      observable.withObservers { (observer: Ping) in observer.ping("inner") }
    }

    observable.withObservers { (observer: Ping) in observer.ping("outer") }
    #expect(names(of: log) == ["outer a", "inner a", "inner b", "outer b"])
  }

  @Test("Callbacks see the state at the time of the pass (old-value pattern)", arguments: Family.allCases)
  func oldValuePattern(family: Family) {
    let observable = family.make()
    let seen = Guarded<[String]>([])
    var value = "Bar"
    let observer = ValueObserver(seen: seen)
    observable.addObserver(observer)

    func set(_ newValue: String) {
      observable.withObservers { (observer: ValueObserving) in
        observer.valueChanged(from: value, to: newValue)
      }
      value = newValue
    }
    set("World")
    // A change made from inside a callback runs its pass at once, reading the value as it is
    // then; the outer callback had already read its old value ("World") when it was called.
    observer.onChange = { _, new in if new == "Again" { set("Nested") } }
    set("Again")

    #expect(seen.value == ["Bar→World", "World→Nested", "World→Again"])
    #expect(value == "Again")
  }

  @Test("A pass keeps each observer alive for its call", arguments: Family.allCases)
  func observerAliveDuringCall(family: Family) {
    let observable = family.make()
    var holder: Counter? = Counter()
    weak let weakCounter = holder
    observable.addObserver(holder!)

    var calls = 0
    observable.withObservers { (observer: Ping) in
      holder = nil  // the pass's own reference keeps it alive until the call returns
      observer.ping("")
      calls += 1
    }
    #expect(calls == 1)
    #expect(weakCounter == nil)
  }

  @Test("A deallocated object's address reused by a new observer registers the new one", arguments: Family.allCases)
  func reusedAddress(family: Family) {
    let observable = family.make()
    var reused = false
    for _ in 0..<200 where !reused {
      var first: Counter? = Counter()
      let address = ObjectIdentifier(first!)
      observable.addObserver(first!)
      first = nil
      let second = Counter()
      guard ObjectIdentifier(second) == address else { continue }
      reused = true
      observable.addObserver(second)
      observable.withObservers { (observer: Ping) in observer.ping("") }
      #expect(second.count == 1)
      #expect(census(observable).observers == 1)
    }
    // The allocator nearly always hands the freed block back at once; if it never did, the
    // case above was not exercised, which is worth a note but not a failure.
    if !reused {
      withKnownIssue("the allocator never reused an observer's address", isIntermittent: true) {
        Issue.record("case not exercised")
      }
    }
  }
}

/// Receives old and new values.
protocol ValueObserving: AnyObject {
  func valueChanged(from oldValue: String, to newValue: String)
}

final class ValueObserver: ValueObserving {
  let seen: Guarded<[String]>
  var onChange: ((String, String) -> Void)?

  init(seen: Guarded<[String]>) {
    self.seen = seen
  }

  func valueChanged(from oldValue: String, to newValue: String) {
    onChange?(oldValue, newValue)
    seen.withLock { $0.append("\(oldValue)→\(newValue)") }
  }
}
