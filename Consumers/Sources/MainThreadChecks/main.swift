import Foundation
import ObservableKit

// Acceptance checks of main-actor delivery run as an app runs: top-level code on the main
// thread, then `dispatchMain()`. Every form of `observe(on: MainActor.shared)` must deliver a
// value that comes on the main thread (or in a main-queue block) before the set, post or
// `observe` returns, on every OS version (scripts/check-consumers.sh also runs this with
// OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1); values from another thread come later, in order.
// Each check prints "ok" or "FAIL"; any failure exits with status 1.

var failures = 0

@MainActor
func check(_ name: String, _ condition: Bool, _ detail: @autoclosure () -> String = "") {
  if condition {
    print("ok   \(name)")
  } else {
    failures += 1
    print("FAIL \(name) \(detail())")
  }
}

@MainActor final class Seen {
  var events: [Int] = [], properties: [Int] = [], posts: [Int] = []
}

@MainActor final class Log {
  var lines: [String] = []
  func add(_ line: String) {
    MainActor.assertIsolated()
    lines.append(line)
  }
}

let log = Log()
let bag = DisposeBag()
let message = HubMessage<Int>("checks.number")

/// Registers every main-actor form, and sends 1 to each from where the caller runs.
@MainActor
func checkAtOnce(_ place: String) {
  let event = ObservableEvent<Int>()
  let property = Property(0)
  let sharedEvent = SharedEvent<Int>()
  let sharedProperty = SharedProperty(0)
  let hub = EventHub()
  let sharedHub = SharedEventHub()
  let derived = property.map { $0 * 10 }
  let local = DisposeBag()

  event.observe(on: MainActor.shared) { log.add("event \($0)") }.disposed(by: local)
  property.observe(on: MainActor.shared) { log.add("property \($0)") }.disposed(by: local)
  check("\(place): Property replays before observe(on:) returns", log.lines == ["property 0"], "\(log.lines)")
  sharedProperty.observe(on: MainActor.shared) { log.add("shared property \($0)") }.disposed(by: local)
  check("\(place): SharedProperty replays before observe(on:) returns", log.lines.last == "shared property 0", "\(log.lines)")
  derived.observe(on: MainActor.shared) { log.add("derived \($0)") }.disposed(by: local)
  check("\(place): a mapped property replays before observe(on:) returns", log.lines.last == "derived 0", "\(log.lines)")
  sharedEvent.observe(on: MainActor.shared) { log.add("shared event \($0)") }.disposed(by: local)
  hub.observe(message, on: MainActor.shared) { log.add("hub \($0)") }.disposed(by: local)
  sharedHub.observe(message, on: MainActor.shared) { log.add("shared hub \($0)") }.disposed(by: local)
  log.lines.removeAll()

  event.notifyObservers(1)
  check("\(place): ObservableEvent delivers before notify returns", log.lines == ["event 1"], "\(log.lines)")
  property.value = 1
  check("\(place): Property delivers before the set returns", log.lines.suffix(2) == ["property 1", "derived 10"], "\(log.lines)")
  sharedEvent.notifyObservers(1)
  check("\(place): SharedEvent delivers before notify returns", log.lines.last == "shared event 1", "\(log.lines)")
  sharedProperty.value = 1
  check("\(place): SharedProperty delivers before the set returns", log.lines.last == "shared property 1", "\(log.lines)")
  hub.post(message, 1)
  check("\(place): EventHub delivers before post returns", log.lines.last == "hub 1", "\(log.lines)")
  sharedHub.post(message, 1)
  check("\(place): SharedEventHub delivers before post returns", log.lines.last == "shared hub 1", "\(log.lines)")
  log.lines.removeAll()
}

/// Values sent from another thread wait for the main actor, in order; a value sent on the
/// main thread while they wait goes behind them.
@MainActor
func checkFromAnotherThread(then next: @escaping @MainActor () -> Void) {
  let sharedEvent = SharedEvent<Int>()
  let sharedProperty = SharedProperty(0)
  let sharedHub = SharedEventHub()
  let seen = Seen()
  let local = DisposeBag()
  sharedEvent.observe(on: MainActor.shared) { seen.events.append($0) }.disposed(by: local)
  sharedProperty.observe(on: MainActor.shared) { seen.properties.append($0) }.disposed(by: local)
  sharedHub.observe(message, on: MainActor.shared) { seen.posts.append($0) }.disposed(by: local)
  let sent = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    for value in 1...200 {
      sharedEvent.notifyObservers(value)
      sharedProperty.value = value
      sharedHub.post(message, value)
    }
    sent.signal()
  }
  sent.wait()  // the main thread waits for the sends only, never for a delivery
  var events = seen.events, posts = seen.posts
  check("other thread: nothing is delivered on the sending thread", events.isEmpty && posts.isEmpty, "\(events.count) \(posts.count)")
  // Sent on the main thread while 200 values wait: it must go behind them.
  sharedEvent.notifyObservers(201)
  sharedProperty.value = 201
  sharedHub.post(message, 201)
  events = seen.events
  posts = seen.posts
  check("main thread behind waiting values: not delivered ahead of them", events.isEmpty && posts.isEmpty, "\(events.prefix(3)) \(posts.prefix(3))")
  DispatchQueue.main.async { @MainActor in
    let events = seen.events, properties = seen.properties, posts = seen.posts
    check("other thread: SharedEvent values in order", events == Array(1...201), "\(events.count) \(events.prefix(5))")
    check("other thread: SharedProperty values in order", properties == [0] + Array(1...201), "\(properties.count) \(properties.prefix(5))")
    check("other thread: SharedEventHub posts in order", posts == Array(1...201), "\(posts.count) \(posts.prefix(5))")
    local.dispose()
    next()
  }
}

check("launch: top-level code runs on the main thread", Thread.isMainThread)
checkAtOnce("top-level code")
DispatchQueue.main.async { @MainActor in
  checkAtOnce("main-queue block")
  checkFromAnotherThread {
    Task { @MainActor in
      checkAtOnce("main-actor task")
      bag.dispose()
      print(failures == 0 ? "all checks passed" : "\(failures) checks failed")
      exit(failures == 0 ? 0 : 1)
    }
  }
}
dispatchMain()
