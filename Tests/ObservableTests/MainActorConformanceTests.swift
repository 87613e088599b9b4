import Dispatch
import Foundation
@testable import Observable
import Testing
import TestSupport

/// An observer protocol declared nonisolated, as a new app's module must declare it.
protocol ProgressObserver: AnyObject {
  func progressChanged(to percent: Int)
}

/// A main-actor observer whose conformance is isolated to the main actor (SE-0470), as
/// InferIsolatedConformances infers it for every type of a new app's module.
@MainActor
final class MainActorProgressView: @MainActor ProgressObserver {
  let name: String
  let log: Guarded<[String]>
  init(_ name: String, log: Guarded<[String]>) {
    self.name = name
    self.log = log
  }
  /// Logs the call, and "on main" when it runs on the main queue (the main actor's executor).
  func progressChanged(to percent: Int) {
    let onMain = DispatchQueue.getSpecific(key: mainQueueKey) == true
    log.withLock { $0.append("\(name) \(percent)\(onMain ? " on main" : "")") }
  }
}

/// The same observer, marked: every runtime calls it on the main actor.
@MainActor
final class MarkedProgressView: @MainActor ProgressObserver, MainActorObserver {
  let name: String
  let log: Guarded<[String]>
  init(_ name: String, log: Guarded<[String]>) {
    self.name = name
    self.log = log
  }
  func progressChanged(to percent: Int) {
    let onMain = DispatchQueue.getSpecific(key: mainQueueKey) == true
    log.withLock { $0.append("\(name) \(percent)\(onMain ? " on main" : "")") }
  }
}

/// A nonisolated observer of the same protocol.
final class PlainProgressView: ProgressObserver, @unchecked Sendable {  // `log` is locked
  let name: String
  let log: Guarded<[String]>
  init(_ name: String, log: Guarded<[String]>) {
    self.name = name
    self.log = log
  }
  func progressChanged(to percent: Int) { log.withLock { $0.append("\(name) \(percent)") } }
}

/// The main queue, marked so that an observer can tell it runs there (the main actor's
/// executor; on Linux not always on the main thread).
let mainQueueKey = DispatchSpecificKey<Bool>()

/// Runs `body` on a background thread and returns when it has, without blocking the main
/// queue, which the passes below may need.
private func onBackgroundThread(_ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
    Thread {
      body()
      done.resume()
    }.start()
  }
}

@Suite("Observers with main-actor-isolated conformances", .serialized)
struct MainActorConformanceTests {
  @Test("The runtime here refuses a main-actor-isolated conformance to a cast off the main actor, from 26 on; before, or simulating before, passes ignore isolation")
  func runtimeChecksIsolatedConformances() async {
    // Off the main actor the probe conforms only where the runtime does not check.
    #expect(MainActorConformances.castsSeeMainActorConformances == !MainActorConformances.runtimeChecksIsolatedConformances)
    #expect(await MainActor.run { MainActorConformances.castsSeeMainActorConformances })
    #expect(MainActorConformances.castsIgnoreIsolation
      == (MainActorConformances.simulatesRuntimeBefore26 || !MainActorConformances.runtimeChecksIsolatedConformances))
  }

  @Test("A pass off the main actor calls an unmarked main-actor-isolated observer on the main actor, in its turn, where the runtime checks; never on the main actor before 26")
  func calledOnMainActorInOrder() async {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let log = Guarded<[String]>([])
    let downloader = ObservableThreadSafeClass()
    let first = PlainProgressView("first", log: log)
    let isolated = await MainActorProgressView("isolated", log: log)
    let last = PlainProgressView("last", log: log)
    downloader.addObserver([first, isolated, last])
    nonisolated(unsafe) let shared = downloader
    await onBackgroundThread {
      for percent in [10, 50] {
        shared.withObservers { (observer: ProgressObserver) in observer.progressChanged(to: percent) }
      }
    }
    if MainActorConformances.castsIgnoreIsolation {
      // Before 26 the runtime lets the pass call it on its thread; the simulation, on a
      // runtime that refuses the cast, skips it (and reports its type). Never on the main actor.
      #expect(log.value.filter { !$0.hasPrefix("isolated") } == ["first 10", "last 10", "first 50", "last 50"])
      #expect(!log.value.contains { $0.hasSuffix("on main") })
      // The simulation names the type on standard error, the diagnostic that finds the
      // classes to mark.
      #expect(MainActorConformances.wasReported(MainActorProgressView.self, for: (any ProgressObserver).self)
        == MainActorConformances.simulatesRuntimeBefore26)
    } else {
      #expect(log.value == ["first 10", "isolated 10 on main", "last 10", "first 50", "isolated 50 on main", "last 50"])
    }
    withExtendedLifetime((first, isolated, last)) {}
  }

  @Test("Contract: a pass off the main actor calls a MainActorObserver on the main actor, in its turn, on every runtime")
  func markedObserverOnMainActorInOrder() async {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let log = Guarded<[String]>([])
    let downloader = ObservableThreadSafeClass()
    let first = PlainProgressView("first", log: log)
    let marked = await MarkedProgressView("marked", log: log)
    let last = PlainProgressView("last", log: log)
    downloader.addObserver([first, marked, last])
    nonisolated(unsafe) let shared = downloader
    await onBackgroundThread {
      for percent in [10, 50] {
        shared.withObservers { (observer: ProgressObserver) in observer.progressChanged(to: percent) }
      }
    }
    #expect(log.value == ["first 10", "marked 10 on main", "last 10", "first 50", "marked 50 on main", "last 50"])
    withExtendedLifetime((first, marked, last)) {}
  }

  @Test("Contract: a pass on the main actor calls a MainActorObserver at once")
  @MainActor
  func markedObserverOnMainActorDirectly() {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let log = Guarded<[String]>([])
    let downloader = ObservableClass()
    let marked = MarkedProgressView("marked", log: log)
    downloader.addObserver(marked)
    downloader.withObservers { (observer: ProgressObserver) in observer.progressChanged(to: 1) }
    #expect(log.value == ["marked 1 on main"])
    withExtendedLifetime(marked) {}
  }

  @Test("An observer that does not conform on the main actor either costs at most one retry per type, not one per pass")
  func nonConformingTypeRetriedOnce() async {
    MainActorConformances.forget()
    let retries = Guarded(0)
    let other = Recorder("other", log: Guarded([]))
    await onBackgroundThread {
      for _ in 0..<3 {
        MainActorConformances.call(other, { (_: ProgressObserver) in Issue.record("called") }) {
          retries.withLock { $0 += 1 }
          return $0 as? ProgressObserver
        }
      }
    }
    // Before 26 the pass does not retry an unmarked observer; the simulation casts once
    // more on the main actor, to name the type if it conforms there.
    let expected = MainActorConformances.castsIgnoreIsolation && !MainActorConformances.simulatesRuntimeBefore26 ? 0 : 1
    #expect(retries.value == expected)
  }

  @Test("On the main actor a failed cast is final: no retry")
  @MainActor
  func noRetryOnMainActor() {
    let retries = Guarded(0)
    MainActorConformances.call(PingOnly(), { (_: ProgressObserver) in }) {
      retries.withLock { $0 += 1 }
      return $0 as? ProgressObserver
    }
    #expect(retries.value == 0)
  }

  @Test("A nested pass started by a MainActorObserver called on the main actor runs there without waiting")
  func nestedPassOnMainActor() async {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let log = Guarded<[String]>([])
    let outer = ObservableThreadSafeClass()
    let inner = SharedObservable()
    let isolated = await MarkedProgressView("isolated", log: log)
    let relay = MainActorRelay(inner)
    outer.addObserver(relay)
    inner.addObserver(isolated)
    nonisolated(unsafe) let shared = outer
    await onBackgroundThread {
      shared.withObservers { (observer: ProgressObserver) in observer.progressChanged(to: 3) }
    }
    #expect(log.value == ["isolated 3 on main"])
    withExtendedLifetime((isolated, relay, inner)) {}
  }

  @Test("withKeyedObservers from a background thread calls a MainActorObserver on the main actor")
  func keyedFromBackground() async {
    DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    let log = Guarded<[String]>([])
    let repository = KeyedObservableThreadSafeClass<String>()
    let isolated = await MarkedProgressView("isolated", log: log)
    repository.addKeyedObserver(key: "a", isolated)
    nonisolated(unsafe) let shared = repository
    await onBackgroundThread {
      shared.withKeyedObservers(key: "a") { (_, observer: ProgressObserver) in observer.progressChanged(to: 7) }
    }
    #expect(log.value == ["isolated 7 on main"])
    withExtendedLifetime(isolated) {}
  }
}

/// A main-actor observer that passes each report on to the observers of another object.
@MainActor
final class MainActorRelay: @MainActor ProgressObserver, MainActorObserver {
  let next: SharedObservable
  nonisolated init(_ next: SharedObservable) { self.next = next }
  func progressChanged(to percent: Int) {
    next.withObservers { (observer: ProgressObserver) in observer.progressChanged(to: percent) }
  }
}

/// The thread-safe class shared as its documentation says: it adds no state.
final class SharedObservable: ObservableThreadSafeClass, @unchecked Sendable {}
