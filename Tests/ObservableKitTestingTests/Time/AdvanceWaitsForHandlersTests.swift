import Dispatch
import ObservableKit
import ObservableKitTesting
import Testing
import TestSupport

/// How a handler of a timer's delivery ends its own subscription while it runs: each of
/// these cancels the timer from inside the firing.
enum AdvanceEnding: CaseIterable, CustomStringConvertible {
  /// `take(1)`: the operator ends the subscription before it delivers the value.
  case take1
  /// `once()`: the same.
  case once
  /// `take(until: stop)`: the handler notifies `stop`, which ends the subscription.
  case takeUntil
  /// The handler disposes its own token.
  case dispose
  /// The handler disposes the bag that holds its token.
  case disposeBag
  /// The handler releases the operator's source: the source's end ends the subscription.
  case releaseSource

  var description: String {
    switch self {
    case .take1: "take(1)"
    case .once: "once()"
    case .takeUntil: "take(until:)"
    case .dispose: "dispose() in the handler"
    case .disposeBag: "a bag disposed in the handler"
    case .releaseSource: "the source released in the handler"
    }
  }
}

/// Where a shared surface's handler is registered: `observeNonisolated` (it runs on the
/// operator's actor, as the firing calls it), or the isolation-keeping `observe` of a
/// main-actor handler, with the operator on the main actor (called at once there).
enum SharedHandlerKind: CaseIterable, CustomStringConvertible {
  case nonisolated, mainActor

  var description: String { self == .nonisolated ? "observeNonisolated" : "observe (main actor)" }
}

/// The rules whose first delivery comes from the timer (a throttle's first goes at once).
enum TimerRule: CaseIterable, CustomStringConvertible {
  case debounce, delay

  var description: String { self == .debounce ? "debounce" : "delay" }
}

/// One subscription of a time operator on one surface, made and fed in the domain of the
/// actor that applies it (`isolation`), whose handler reads the clock's `now` after ending its
/// own subscription the way `ending` says. The values the handler saw go to `seen`.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
final class AdvanceRig {
  private let surface: TimeSurface
  private let event = Guarded<ObservableEvent<Int>?>(ObservableEvent<Int>())
  private let property = Guarded<Property<Int>?>(Property(0))
  private let sharedEvent = Guarded<SharedEvent<Int>?>(SharedEvent<Int>())
  private let sharedProperty = Guarded<SharedProperty<Int>?>(SharedProperty(0))
  private let token = Guarded<(any Disposable)?>(nil)
  private let bag = DisposeBag()

  init(
    _ surface: TimeSurface,
    rule: TimerRule,
    ending: AdvanceEnding,
    sharedHandler: SharedHandlerKind = .nonisolated,
    clock: ManualClock,
    seen: Guarded<[Duration]>,
    isolation: isolated (any Actor) = #isolation
  ) {
    self.surface = surface
    let duration = Duration.seconds(1)
    let stopConfined = ObservableEvent<Void>()
    let stopShared = SharedEvent<Void>()
    let (token, bag) = (self.token, self.bag)
    let (event, property, sharedEvent, sharedProperty) = (self.event, self.property, self.sharedEvent, self.sharedProperty)
    // What the handler does before it reads the clock: the cancel of its timer comes here.
    let end: @Sendable () -> Void = {
      switch ending {
      case .take1, .once: break
      case .takeUntil: if surface == .sharedEvent || surface == .sharedProperty { stopShared.notifyObservers(()) }
      case .dispose: token.value?.dispose()
      case .disposeBag: bag.dispose()
      case .releaseSource:
        // Taken out under the locks and released after them: the release ends the chain.
        let released: (Any?, Any?, Any?, Any?) = (
          event.withLock { $0.take() }, property.withLock { $0.take() },
          sharedEvent.withLock { $0.take() }, sharedProperty.withLock { $0.take() }
        )
        withExtendedLifetime(released) {}
      }
    }
    let record: @Sendable (Int) -> Void = { _ in
      end()
      seen.withLock { $0.append(clock.now.offset) }
    }
    // The confined `take(until:)` hears a confined event, notified in this domain.
    let recordConfined: (Int) -> Void = { value in
      if ending == .takeUntil { stopConfined.notifyObservers(()) }
      record(value)
    }
    switch surface {
    case .event, .property:
      let timed: ReadOnlyEvent<Int>
      if surface == .event {
        let source = event.value!
        timed = rule == .debounce ? source.debounce(for: duration, clock: clock) : source.delay(for: duration, clock: clock)
      } else {
        let source = property.value!
        timed = (rule == .debounce ? source.debounce(for: duration, clock: clock) : source.delay(for: duration, clock: clock)).changes
      }
      let ended: ReadOnlyEvent<Int> =
        switch ending {
        case .take1: timed.take(1)
        case .once: timed.once()
        case .takeUntil: timed.take(until: stopConfined)
        case .dispose, .disposeBag, .releaseSource: timed
        }
      token.value = ended.observe { recordConfined($0) }
    case .sharedEvent, .sharedProperty:
      let timed: SharedReadOnlyEvent<Int>
      if surface == .sharedEvent {
        let source = sharedEvent.value!
        timed = rule == .debounce ? source.debounce(for: duration, clock: clock) : source.delay(for: duration, clock: clock)
      } else {
        let source = sharedProperty.value!
        timed = (rule == .debounce ? source.debounce(for: duration, clock: clock) : source.delay(for: duration, clock: clock)).changes
      }
      let ended: SharedReadOnlyEvent<Int> =
        switch ending {
        case .take1: timed.take(1)
        case .once: timed.once()
        case .takeUntil: timed.take(until: stopShared)
        case .dispose, .disposeBag, .releaseSource: timed
        }
      switch sharedHandler {
      case .nonisolated: token.value = ended.observeNonisolated { record($0) }
      case .mainActor: token.value = ended.observe { @MainActor value in record(value) }
      }
    }
    if ending == .disposeBag { token.value?.disposed(by: bag) }
  }

  /// Notifies (or sets) the source, if the handler has not released it.
  func send(_ value: Int) {
    switch surface {
    case .event: event.value?.notifyObservers(value)
    case .property: property.value?.value = value
    case .sharedEvent: sharedEvent.value?.notifyObservers(value)
    case .sharedProperty: sharedProperty.value?.value = value
    }
  }

  func end() {
    token.value?.dispose()
    bag.dispose()
  }
}

/// An actor other than the test's, that applies the operator in its own domain: a confined
/// operator's handlers then run on it, and so do a shared operator's timer deliveries.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
actor Elsewhere {
  private var rig: AdvanceRig?

  func start(_ surface: TimeSurface, rule: TimerRule, ending: AdvanceEnding, clock: ManualClock, seen: Guarded<[Duration]>) {
    rig = AdvanceRig(surface, rule: rule, ending: ending, clock: clock, seen: seen)
  }

  func send(_ value: Int) {
    rig?.send(value)
  }

  func end() {
    rig?.end()
    rig = nil
  }
}

/// `ManualClock.advance(by:)` returns once every timer due by the new time has fired and its
/// handlers have run, whatever a handler does: here each ends its own subscription during
/// the firing (which cancels the timer while the clock waits for that firing), then reads the
/// clock. Each case runs many times, since the failure it guards against was a race: the
/// handler must have run before `advance` returned, and seen `now` at the deadline (1 s), not
/// at the end of the advance (5 s).
@Suite("ManualClock: advance waits for a handler that ends its own subscription")
struct AdvanceWaitsForHandlersTests {
  static let iterations = 200

  @Test(
    "A handler on the test's actor that ends its subscription has run, at the deadline, when advance returns",
    arguments: TimeSurface.allCases, AdvanceEnding.allCases)
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @MainActor
  func onTheMainActor(surface: TimeSurface, ending: AdvanceEnding) async {
    let kinds: [SharedHandlerKind] = surface == .event || surface == .property ? [.nonisolated] : SharedHandlerKind.allCases
    for rule in TimerRule.allCases {
      for kind in kinds {
        for iteration in 0..<Self.iterations {
          let clock = ManualClock()
          let seen = Guarded<[Duration]>([])
          let rig = AdvanceRig(surface, rule: rule, ending: ending, sharedHandler: kind, clock: clock, seen: seen)
          rig.send(1)
          await clock.advance(by: .seconds(5))
          let first = seen.value
          // The subscription ended: a later value is not delivered.
          rig.send(2)
          await clock.advance(by: .seconds(5))
          let after = seen.value
          rig.end()
          guard first == [.seconds(1)], after == first else {
            Issue.record("\(surface) \(rule) \(ending) \(kind), run \(iteration): saw \(first) when advance returned, \(after) after")
            return
          }
        }
      }
    }
  }

  @Test(
    "A handler on another actor that ends its subscription has run, at the deadline, when advance returns",
    arguments: TimeSurface.allCases, AdvanceEnding.allCases)
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @MainActor
  func onAnotherActor(surface: TimeSurface, ending: AdvanceEnding) async {
    for rule in TimerRule.allCases {
      for iteration in 0..<Self.iterations {
        let clock = ManualClock()
        let seen = Guarded<[Duration]>([])
        let elsewhere = Elsewhere()
        await elsewhere.start(surface, rule: rule, ending: ending, clock: clock, seen: seen)
        await elsewhere.send(1)
        await clock.advance(by: .seconds(5))
        let first = seen.value
        await elsewhere.send(2)
        await clock.advance(by: .seconds(5))
        let after = seen.value
        await elsewhere.end()
        guard first == [.seconds(1)], after == first else {
          Issue.record("\(surface) \(rule) \(ending), run \(iteration): saw \(first) when advance returned, \(after) after")
          return
        }
      }
    }
  }
}

/// How a handler delivered by a job of its own actor ends, if at all: the time operator is
/// applied in one domain and its handler keeps the isolation of another, so each value hops.
enum HopEnding: CaseIterable, CustomStringConvertible {
  case none, take1, once, takeUntil, dispose

  var description: String {
    switch self {
    case .none: "no ending"
    case .take1: "take(1)"
    case .once: "once()"
    case .takeUntil: "take(until:)"
    case .dispose: "dispose() in the handler"
    }
  }

  /// `timed`, ended as this says (`stop` ends `take(until:)`).
  func apply(to timed: SharedReadOnlyEvent<Int>, stop: SharedEvent<Void>) -> SharedReadOnlyEvent<Int> {
    switch self {
    case .none, .dispose: timed
    case .take1: timed.take(1)
    case .once: timed.once()
    case .takeUntil: timed.take(until: stop)
    }
  }
}

/// A shared source and its debounced or delayed output, made in the domain of the caller.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
struct HopSource: Sendable {
  let event = SharedEvent<Int>()
  let property = SharedProperty(0)
  let stop = SharedEvent<Void>()
  let surface: TimeSurface
  let timed: SharedReadOnlyEvent<Int>

  init(_ surface: TimeSurface, rule: TimerRule, clock: ManualClock, isolation: isolated (any Actor) = #isolation) {
    self.surface = surface
    let duration = Duration.seconds(1)
    if surface == .sharedEvent {
      timed = rule == .debounce ? event.debounce(for: duration, clock: clock) : event.delay(for: duration, clock: clock)
    } else {
      timed = (rule == .debounce ? property.debounce(for: duration, clock: clock) : property.delay(for: duration, clock: clock)).changes
    }
  }

  func send(_ value: Int) {
    if surface == .sharedEvent { event.notifyObservers(value) } else { property.value = value }
  }
}

/// A listener whose method observes, so that its handler keeps the actor's isolation: each
/// value is delivered by a job on this actor.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
actor Listener {
  private(set) var heard: [Int] = []
  private var token: (any Disposable)?

  /// Observes `source`'s output, ended as `ending` says; the handler records `clock.now`
  /// into `seen`, read by the test without a hop to this actor.
  func listen(to source: HopSource, ending: HopEnding, clock: ManualClock, seen: Guarded<[Duration]>) {
    token = ending.apply(to: source.timed, stop: source.stop).observe { value in
      self.assertIsolated()
      if ending == .takeUntil { source.stop.notifyObservers(()) }
      if ending == .dispose { self.token?.dispose() }
      self.heard.append(value)
      seen.withLock { $0.append(clock.now.offset) }
    }
  }

  func end() {
    token?.dispose()
    token = nil
  }
}

/// The reverse: the operator is applied inside this actor (its timer fires here), and the
/// handler is a main-actor one, delivered by a main-actor job.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
actor OperatorHost {
  private var source: HopSource?
  private var token: (any Disposable)?

  func start(_ surface: TimeSurface, rule: TimerRule, ending: HopEnding, clock: ManualClock, seen: Guarded<[Duration]>) {
    let source = HopSource(surface, rule: rule, clock: clock)
    self.source = source
    let token = Guarded<(any Disposable)?>(nil)
    token.value = ending.apply(to: source.timed, stop: source.stop).observe { @MainActor value in
      MainActor.assertIsolated()
      if ending == .takeUntil { source.stop.notifyObservers(()) }
      if ending == .dispose { token.value?.dispose() }
      seen.withLock { $0.append(clock.now.offset) }
    }
    self.token = token.value
  }

  func send(_ value: Int) {
    source?.send(value)
  }

  func end() {
    token?.dispose()
    token = nil
    source = nil
  }
}

/// `ManualClock.advance(by:)` waits for a handler on any actor: one that keeps the isolation
/// of another actor than the one the operator fires on is delivered by a job of its actor,
/// and the advance returns only once that job has run it.
@Suite("ManualClock: advance waits for a handler delivered on another actor")
struct AdvanceWaitsForHopsTests {
  static let iterations = 200

  @Test(
    "An operator applied on the main actor, a handler isolated to another actor: it has run, at the deadline, when advance returns",
    arguments: [TimeSurface.sharedEvent, .sharedProperty], HopEnding.allCases)
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @MainActor
  func handlerOnAnotherActor(surface: TimeSurface, ending: HopEnding) async {
    for rule in TimerRule.allCases {
      for iteration in 0..<Self.iterations {
        let clock = ManualClock()
        let seen = Guarded<[Duration]>([])
        let source = HopSource(surface, rule: rule, clock: clock)
        let listener = Listener()
        await listener.listen(to: source, ending: ending, clock: clock, seen: seen)
        source.send(1)
        await clock.advance(by: .seconds(5))
        let first = seen.value
        source.send(2)
        await clock.advance(by: .seconds(5))
        let after = seen.value
        await listener.end()
        let expectedAfter: [Duration] = ending == .none ? [.seconds(1), .seconds(6)] : [.seconds(1)]
        guard first == [.seconds(1)], after == expectedAfter else {
          Issue.record("\(surface) \(rule) \(ending), run \(iteration): saw \(first) when advance returned, \(after) after the second")
          return
        }
      }
    }
  }

  @Test(
    "An operator applied inside an actor, a main-actor handler: it has run, at the deadline, when advance returns",
    arguments: [TimeSurface.sharedEvent, .sharedProperty], HopEnding.allCases)
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  @MainActor
  func mainActorHandlerOfAnOperatorElsewhere(surface: TimeSurface, ending: HopEnding) async {
    for rule in TimerRule.allCases {
      for iteration in 0..<Self.iterations {
        let clock = ManualClock()
        let seen = Guarded<[Duration]>([])
        let host = OperatorHost()
        await host.start(surface, rule: rule, ending: ending, clock: clock, seen: seen)
        await host.send(1)
        await clock.advance(by: .seconds(5))
        let first = seen.value
        await host.send(2)
        await clock.advance(by: .seconds(5))
        let after = seen.value
        await host.end()
        let expectedAfter: [Duration] = ending == .none ? [.seconds(1), .seconds(6)] : [.seconds(1)]
        guard first == [.seconds(1)], after == expectedAfter else {
          Issue.record("\(surface) \(rule) \(ending), run \(iteration): saw \(first) when advance returned, \(after) after the second")
          return
        }
      }
    }
  }
}

/// A serial executor that runs its jobs on a queue, except while held: then it keeps them,
/// in order, until ``release()``, and tells ``firstHeldJob()`` that one came.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class HeldExecutor: SerialExecutor {
  private struct State {
    var isHeld = false
    var held: [UnownedJob] = []
    var waiter: CheckedContinuation<Void, Never>?
  }

  private let queue = DispatchQueue(label: "HeldExecutor")
  private let state = Guarded(State())

  func enqueue(_ job: UnownedJob) {
    let (run, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
      guard state.isHeld else { return (true, nil) }
      state.held.append(job)
      defer { state.waiter = nil }
      return (false, state.waiter)
    }
    if run { queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) } }
    waiter?.resume()
  }

  func hold() {
    state.withLock { $0.isHeld = true }
  }

  /// Returns once a job has been held.
  func firstHeldJob() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        if !state.held.isEmpty { return true }
        state.waiter = continuation
        return false
      }
      if now { continuation.resume() }
    }
  }

  func release() {
    let jobs = state.withLock { state in
      state.isHeld = false
      defer { state.held = [] }
      return state.held
    }
    for job in jobs { queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) } }
  }
}

/// A listener on a ``HeldExecutor``: the test decides when its jobs run.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
actor HeldListener {
  let executor: HeldExecutor
  /// Readable without a hop, so that the test can dispose it while this actor's jobs wait.
  let token = Guarded<(any Disposable)?>(nil)

  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  init(executor: HeldExecutor) {
    self.executor = executor
  }

  func listen(to source: HopSource, clock: ManualClock, seen: Guarded<[Duration]>) {
    token.value = source.timed.observe { _ in
      self.assertIsolated()
      seen.withLock { $0.append(clock.now.offset) }
    }
  }
}

extension AdvanceWaitsForHopsTests {
  @Test(
    "A dispose while advance waits for a handler's job on another actor: the job ends the wait without calling the handler",
    arguments: [TimeSurface.sharedEvent, .sharedProperty])
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @MainActor
  func disposeDuringTheWait(surface: TimeSurface) async {
    let clock = ManualClock()
    let seen = Guarded<[Duration]>([])
    let source = HopSource(surface, rule: .debounce, clock: clock)
    let executor = HeldExecutor()
    let listener = HeldListener(executor: executor)
    await listener.listen(to: source, clock: clock, seen: seen)
    executor.hold()
    source.send(1)
    let advanced = Guarded(false)
    let advancing = Task { @MainActor in
      await clock.advance(by: .seconds(5))
      advanced.value = true
    }
    // The firing has enqueued the handler's job, which the executor holds: the advance
    // waits for it.
    await executor.firstHeldJob()
    #expect(!advanced.value)
    listener.token.value?.dispose()
    executor.release()
    let returned: Void? = await finishing(within: 10) { await advancing.value }
    #expect(returned != nil, "advance returned once the disposed subscription's job ran")
    #expect(advanced.value)
    #expect(seen.value == [], "a disposed subscription's handler is not called")
    #expect(clock.now.offset == .seconds(5))
  }
}
