import Dispatch
import Foundation
import Testing
import TestSupport

@testable import ObservableKit

// The model-based walk of `ModelBasedTests`, widened to the surfaces of the hubs and the
// shared family: six sources (ObservableEvent, Property, SharedEvent, SharedProperty, an
// EventHub message, a SharedEventHub message), every delivery form (synchronous,
// owner-bound, subscribe, take/once, queue, main actor, isolation-inheriting), sender
// filters, unsubscribe, and the release of sources and hubs, which ends their
// subscriptions. Checked after every step: each subscription's log, each source's count, and
// each token's isDisposed where the contract fixes it.
//
// The walk runs on the main actor, so main-actor handlers run at once (nothing of a
// subscription waits): the shared owner-bound and subscribe forms are main-actor handlers
// (which may react, as plain ones do), the isolation-inheriting form is a nonisolated one
// (on the notifying thread, in an immediate task: it only records, since a main-actor
// delivery it caused would wait for the main actor). Queue handlers are flushed before
// each check. Handlers of the asynchronous forms only record, so the walk stays on one
// thread.
//
// Replay a failure with OBSERVABLEKIT_MODEL_SEED=<seed> swift test --filter ModelBasedFamily

enum FamilySource: Int, CaseIterable, CustomStringConvertible {
  case event, property, sharedEvent, sharedProperty, hub, sharedHub

  var isProperty: Bool { self == .property || self == .sharedProperty }
  var isHub: Bool { self == .hub || self == .sharedHub }
  var isShared: Bool { self == .sharedEvent || self == .sharedProperty || self == .sharedHub }
  /// Whether an owner-bound subscription stops counting the moment its owner has gone
  /// (the storage knows the owner); otherwise it counts until the next value reaching it
  /// ends it.
  var ownerCountsAtOnce: Bool { self != .sharedEvent && self != .sharedHub }

  var description: String { ["E", "P", "SE", "SP", "H", "SH"][rawValue] }
}

enum FamilyForm: CaseIterable {
  case plain, owner, subscribe, once, take3, queue, mainActor, isolated
  /// `observe { }` with a main-actor handler: on a plain `SharedEvent`, a subscription kept
  /// in the event's own storage (`MainActorSubscription`).
  case mainActorIsolated

  /// Whether the handler runs synchronously on the walk's thread outside any task, so that it
  /// may react (call back into the library).
  var reacts: Bool { self == .plain || self == .owner || self == .subscribe }

  func applies(to source: FamilySource) -> Bool {
    switch self {
    case .subscribe: source.isProperty
    case .isolated: source.isShared
    case .mainActorIsolated: source == .sharedEvent || source == .sharedProperty
    default: true
    }
  }

  var takeCount: Int? {
    switch self {
    case .once: 1
    case .take3: 3
    default: nil
    }
  }
}

enum FamilyReaction: CaseIterable {
  case none, notifySame, notifyEvent, disposeSelf, disposeNewest, observeSame

  func fires(on value: Int) -> Bool {
    self != .none && value < 40 && value % 3 == 0
  }
}

enum FamilyOperation: CustomStringConvertible {
  case observe(FamilySource, FamilyForm, FamilyReaction, owner: Int?, filter: Int?)
  case dispose(Int)
  case notify(FamilySource, Int, sender: Int?)
  case putInBag(Int)
  case disposeBag
  case newOwner
  case releaseOwner(Int)
  case unsubscribe(FamilySource, owner: Int)
  case releaseSource(FamilySource)

  var description: String {
    switch self {
    case let .observe(s, f, r, o, filter): "observe(\(s), \(f), \(r), owner \(o.map(String.init) ?? "-"), from \(filter.map(String.init) ?? "-"))"
    case let .dispose(i): "dispose(#\(i))"
    case let .notify(s, v, sender): "notify(\(s), \(v), from \(sender.map(String.init) ?? "-"))"
    case let .putInBag(i): "putInBag(#\(i))"
    case .disposeBag: "disposeBag"
    case .newOwner: "newOwner"
    case let .releaseOwner(o): "releaseOwner(\(o))"
    case let .unsubscribe(s, o): "unsubscribe(\(s), \(o))"
    case let .releaseSource(s): "releaseSource(\(s))"
    }
  }

  static func random(using random: inout SeededRandom, subscriptions: Int, owners: [Bool]) -> FamilyOperation {
    let source = FamilySource.allCases.randomElement(using: &random)!
    let forms = FamilyForm.allCases.filter { $0.applies(to: source) }
    var form = forms.randomElement(using: &random)!
    let reaction = FamilyReaction.allCases.randomElement(using: &random)!
    let value = Int.random(in: 0..<60, using: &random)
    let liveOwners = owners.indices.filter { owners[$0] }
    let sender = source.isHub ? [nil, 0, 1].randomElement(using: &random)! : nil
    let filter = source.isHub ? [nil, 0].randomElement(using: &random)! : nil
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30:
      var owner: Int?
      if form == .owner || form == .subscribe {
        if let chosen = liveOwners.randomElement(using: &random) { owner = chosen } else { form = .plain }
      }
      return .observe(source, form, form.reacts ? reaction : .none, owner: owner, filter: filter)
    case 30..<42 where subscriptions > 0: return .dispose(Int.random(in: 0..<subscriptions, using: &random))
    case 42..<72: return .notify(source, value, sender: sender)
    case 72..<78 where subscriptions > 0: return .putInBag(Int.random(in: 0..<subscriptions, using: &random))
    case 78..<80: return .disposeBag
    case 80..<86: return .newOwner
    case 86..<91 where !liveOwners.isEmpty: return .releaseOwner(liveOwners.randomElement(using: &random)!)
    case 91..<95 where source.isProperty && !owners.isEmpty:
      return .unsubscribe(source, owner: Int.random(in: 0..<owners.count, using: &random))
    case 95..<100: return .releaseSource(source)
    default: return .notify(source, value, sender: sender)
    }
  }
}

// MARK: - The reference model

/// The Contracts article for the six sources, single-threaded: lists, flags, one FIFO queue
/// per source for same-thread re-entrancy, the version gate of property subscribers.
final class FamilyModel {
  final class Subscription {
    let id: Int
    let source: FamilySource
    let generation: Int
    let form: FamilyForm
    let reaction: FamilyReaction
    let owner: Int?
    let filter: Int?
    var remaining: Int?
    /// Disposed, unsubscribed, taken to its count, or found with its owner gone.
    var ended = false
    var hasToken = false
    var lastVersion = 0
    var log: [Int] = []
    /// Values handed to a queue subscription during the current step, not yet checked. A
    /// `dispose()` drops those its queue had not taken yet, which depends on timing.
    var pending: [Int] = []

    init(id: Int, source: FamilySource, generation: Int, form: FamilyForm, reaction: FamilyReaction, owner: Int?, filter: Int?) {
      self.id = id
      self.source = source
      self.generation = generation
      self.form = form
      self.reaction = reaction
      self.owner = owner
      self.filter = filter
      remaining = form.takeCount
    }
  }

  struct SourceState {
    var generation = 0
    var value = 0
    var version = 1
    /// Non-nil while a pass of this source runs: what re-entrant notifications queued.
    var queue: [(value: Int, version: Int, sender: Int?)]?
  }

  var subscriptions: [Subscription] = []
  var sources = [SourceState](repeating: SourceState(), count: FamilySource.allCases.count)
  var ownersAlive: [Bool] = []
  var bag: [Int] = []
  private var nextID = 0

  func ownerAlive(_ s: Subscription) -> Bool { s.owner.map { ownersAlive[$0] } ?? true }

  func isCurrent(_ s: Subscription) -> Bool { s.generation == sources[s.source.rawValue].generation }

  func isLive(_ s: Subscription) -> Bool { !s.ended && isCurrent(s) && ownerAlive(s) }

  /// What `observerCount` counts: a subscription whose owner has gone still counts on the
  /// sources whose storage does not know the owner, until a value reaching it ends it.
  func isCounted(_ s: Subscription) -> Bool {
    !s.ended && isCurrent(s) && (ownerAlive(s) || !s.source.ownerCountsAtOnce)
  }

  /// Whether the contract fixes the token's isDisposed now: ended or released is disposed;
  /// a live one is not; one whose owner has gone is ended lazily (not fixed).
  func expectedDisposed(_ s: Subscription) -> Bool? {
    if s.ended || !isCurrent(s) { return true }
    return ownerAlive(s) ? false : nil
  }

  func count(_ source: FamilySource) -> Int {
    subscriptions.filter { $0.source == source && isCounted($0) }.count
  }

  /// The fewest subscriptions `observerCount` may report: a dead owner's subscription that
  /// `count` still counts may also have been ended already, by a sweep of dead owners (the
  /// process-wide list of `OwnerLifetime`, or the storage's), which runs as owner-bound
  /// subscriptions are added; when it does is not the model's to know.
  func minimumCount(_ source: FamilySource) -> Int {
    subscriptions.filter { $0.source == source && isLive($0) }.count
  }

  @discardableResult
  func observe(_ source: FamilySource, _ form: FamilyForm, _ reaction: FamilyReaction, owner: Int?, filter: Int?) -> Subscription {
    nextID += 1
    let state = sources[source.rawValue]
    let s = Subscription(
      id: nextID, source: source, generation: state.generation, form: form, reaction: reaction, owner: owner, filter: filter)
    subscriptions.append(s)
    if source.isProperty {
      if form == .subscribe {
        s.lastVersion = state.version
      } else {
        inFrame(source) { deliver(state.value, version: state.version, to: s) }
      }
    }
    s.hasToken = true
    return s
  }

  func notify(_ source: FamilySource, _ value: Int, sender: Int?) {
    var version = 0
    if source.isProperty {
      sources[source.rawValue].value = value
      sources[source.rawValue].version += 1
      version = sources[source.rawValue].version
    }
    if sources[source.rawValue].queue != nil {
      sources[source.rawValue].queue!.append((value, version, sender))
      return
    }
    inFrame(source) { pass(source, value, version: version, sender: sender) }
  }

  private func inFrame(_ source: FamilySource, _ body: () -> Void) {
    if sources[source.rawValue].queue != nil { return body() }
    sources[source.rawValue].queue = []
    body()
    while let next = sources[source.rawValue].queue!.first {
      sources[source.rawValue].queue!.removeFirst()
      pass(source, next.value, version: next.version, sender: next.sender)
    }
    sources[source.rawValue].queue = nil
  }

  private func pass(_ source: FamilySource, _ value: Int, version: Int, sender: Int?) {
    let generation = sources[source.rawValue].generation
    for s in subscriptions where s.source == source && s.generation == generation {
      guard !s.ended, sources[source.rawValue].generation == generation else { continue }
      // A hub's sender filter runs before anything else of the subscription.
      if let filter = s.filter, filter != sender { continue }
      guard ownerAlive(s) else {
        s.ended = true  // the value that finds the owner gone ends the subscription
        continue
      }
      if source.isProperty {
        deliver(value, version: version, to: s)
      } else {
        record(value, to: s)
      }
    }
  }

  private func deliver(_ value: Int, version: Int, to s: Subscription) {
    guard !s.ended, version > s.lastVersion else { return }
    s.lastVersion = version
    record(value, to: s)
  }

  private func record(_ value: Int, to s: Subscription) {
    if let remaining = s.remaining {
      // take(_:) ends the subscription before the last value is delivered.
      s.remaining = remaining - 1
      if remaining == 1 { s.ended = true }
    }
    if s.form == .queue { s.pending.append(value) } else { s.log.append(value) }
    react(s, value)
  }

  private func react(_ s: Subscription, _ value: Int) {
    guard s.reaction.fires(on: value) else { return }
    switch s.reaction {
    case .none: break
    case .notifySame: notify(s.source, value + 1, sender: nil)
    case .notifyEvent: notify(.event, value + 1, sender: nil)
    case .disposeSelf: if s.hasToken { s.ended = true }
    case .disposeNewest: subscriptions.last(where: { isLive($0) && $0.hasToken })?.ended = true
    case .observeSame: observe(s.source, .plain, .none, owner: nil, filter: nil)
    }
  }

  func unsubscribe(_ source: FamilySource, owner: Int) {
    for s in subscriptions where s.source == source && s.owner == owner { s.ended = true }
  }

  func releaseSource(_ source: FamilySource) {
    sources[source.rawValue].generation += 1
    sources[source.rawValue].value = 0
    sources[source.rawValue].version = 1
  }
}

// MARK: - The real system

/// Driven from the walk's one thread (the main actor); queue handlers only record.
final class FamilySystem: @unchecked Sendable {
  final class Subscription: @unchecked Sendable {
    var token: (any Disposable)?
    let reaction: FamilyReaction
    let owner: Int?
    let log = ValueLog<Int>()

    init(reaction: FamilyReaction, owner: Int?) {
      self.reaction = reaction
      self.owner = owner
    }
  }

  final class Owner: Sendable {}
  final class Sender: Sendable {}

  static let message = HubMessage<Int>("walk")

  var event = ObservableEvent<Int>()
  var property = Property(0)
  var sharedEvent = SharedEvent<Int>()
  var sharedProperty = SharedProperty(0)
  var hub = EventHub()
  var sharedHub = SharedEventHub()
  let senders = [Sender(), Sender()]
  let queue = DispatchQueue(label: "model-based walk")
  var subscriptions: [Subscription] = []
  var owners: [Owner?] = []
  var bag = DisposeBag()

  func count(_ source: FamilySource) -> Int {
    switch source {
    case .event: event.observerCount
    case .property: property.observerCount
    case .sharedEvent: sharedEvent.observerCount
    case .sharedProperty: sharedProperty.observerCount
    case .hub: hub.observerCount(of: Self.message)
    case .sharedHub: sharedHub.observerCount(of: Self.message)
    }
  }

  @discardableResult
  func observe(_ source: FamilySource, _ form: FamilyForm, _ reaction: FamilyReaction, owner: Int?, filter: Int?) -> Subscription {
    let s = Subscription(reaction: reaction, owner: owner)
    subscriptions.append(s)
    let log = s.log
    let handler: (Int) -> Void = { [unowned self, unowned s] value in
      s.log.record(value)
      self.react(s, source, value)
    }
    let record: @Sendable (Int) -> Void = { log.record($0) }
    let onMain: @MainActor @Sendable (Int) -> Void = { log.record($0) }
    let sender = filter.map { senders[$0] }
    // The walk passes only owners it has not released (an owner can only be passed alive).
    let object = owner.flatMap { owners[$0] }
    nonisolated(unsafe) let unsafeHandler = handler
    let sendableHandler: @Sendable (Int) -> Void = { unsafeHandler($0) }
    switch (source, form) {
    case (.event, .plain): s.token = event.observe(handler)
    case (.event, .owner): s.token = event.observe(with: object!) { _, value in handler(value) }
    case (.event, .queue): s.token = event.observe(on: queue, record)
    case (.event, .mainActor): s.token = event.observe(on: MainActor.shared, onMain)
    case (.event, _): s.token = event.take(form.takeCount!).observe(handler)
    case (.property, .plain): s.token = property.observe(handler)
    case (.property, .owner): s.token = property.observe(with: object!) { _, value in handler(value) }
    case (.property, .subscribe): s.token = property.subscribe(object!) { _, new, _ in handler(new) }
    case (.property, .queue): s.token = property.observe(on: queue, record)
    case (.property, .mainActor): s.token = property.observe(on: MainActor.shared, onMain)
    case (.property, _): s.token = property.take(form.takeCount!).observe(handler)
    case (.sharedEvent, .plain): s.token = sharedEvent.observeNonisolated(sendableHandler)
    case (.sharedEvent, .owner): s.token = sharedEvent.observe(with: object!) { @MainActor _, value in sendableHandler(value) }
    case (.sharedEvent, .queue): s.token = sharedEvent.observe(on: queue, record)
    case (.sharedEvent, .mainActor): s.token = sharedEvent.observe(on: MainActor.shared, onMain)
    case (.sharedEvent, .isolated): s.token = sharedEvent.observe(record)
    case (.sharedEvent, .mainActorIsolated): s.token = sharedEvent.observe(onMain)
    case (.sharedEvent, _): s.token = sharedEvent.take(form.takeCount!).observeNonisolated(record)
    case (.sharedProperty, .plain): s.token = sharedProperty.observeNonisolated(sendableHandler)
    case (.sharedProperty, .owner): s.token = sharedProperty.observe(with: object!) { @MainActor _, value in sendableHandler(value) }
    case (.sharedProperty, .subscribe): s.token = sharedProperty.subscribe(object!) { @MainActor _, new, _ in sendableHandler(new) }
    case (.sharedProperty, .queue): s.token = sharedProperty.observe(on: queue, record)
    case (.sharedProperty, .mainActor): s.token = sharedProperty.observe(on: MainActor.shared, onMain)
    case (.sharedProperty, .isolated): s.token = sharedProperty.observe(record)
    case (.sharedProperty, .mainActorIsolated): s.token = sharedProperty.observe(onMain)
    case (.sharedProperty, _): s.token = sharedProperty.take(form.takeCount!).observeNonisolated(record)
    case (.hub, .plain): s.token = hub.observe(Self.message, from: sender, handler)
    case (.hub, .owner): s.token = hub.observe(Self.message, from: sender, with: object!) { _, value in handler(value) }
    case (.hub, .queue): s.token = hub.observe(Self.message, from: sender, on: queue, record)
    case (.hub, .mainActor): s.token = hub.observe(Self.message, from: sender, on: MainActor.shared, onMain)
    case (.hub, _): s.token = hub.events(Self.message, from: sender).take(form.takeCount!).observe(handler)
    case (.sharedHub, .plain): s.token = sharedHub.observeNonisolated(Self.message, from: sender, sendableHandler)
    case (.sharedHub, .owner):
      s.token = sharedHub.observe(Self.message, from: sender, with: object!) { @MainActor _, value in sendableHandler(value) }
    case (.sharedHub, .queue): s.token = sharedHub.observe(Self.message, from: sender, on: queue, record)
    case (.sharedHub, .mainActor):
      s.token = sharedHub.observe(Self.message, from: sender, on: MainActor.shared, onMain)
    case (.sharedHub, .isolated): s.token = sharedHub.observe(Self.message, from: sender, record)
    case (.sharedHub, _): s.token = sharedHub.events(Self.message, from: sender).take(form.takeCount!).observeNonisolated(record)
    case (_, .subscribe), (_, .isolated), (_, .mainActorIsolated): Issue.record("no \(form) form for \(source)")
    }
    return s
  }

  func notify(_ source: FamilySource, _ value: Int, sender: Int?) {
    let from = sender.map { senders[$0] }
    switch source {
    case .event: event.notifyObservers(value)
    case .property: property.value = value
    case .sharedEvent: sharedEvent.notifyObservers(value)
    case .sharedProperty: sharedProperty.value = value
    case .hub: hub.post(Self.message, value, from: from)
    case .sharedHub: sharedHub.post(Self.message, value, from: from)
    }
  }

  func releaseSource(_ source: FamilySource) {
    switch source {
    case .event: event = ObservableEvent()
    case .property: property = Property(0)
    case .sharedEvent: sharedEvent = SharedEvent()
    case .sharedProperty: sharedProperty = SharedProperty(0)
    case .hub: hub = EventHub()
    case .sharedHub: sharedHub = SharedEventHub()
    }
  }

  func unsubscribe(_ source: FamilySource, owner: Int) {
    // A released owner cannot be named any more; its subscriptions have ended anyway.
    guard let object = owners[owner] else { return }
    switch source {
    case .property: property.unsubscribe(object)
    case .sharedProperty: sharedProperty.unsubscribe(object)
    default: break
    }
  }

  private func isSelectable(_ s: Subscription) -> Bool {
    guard let token = s.token, !token.isDisposed else { return false }
    return s.owner.map { owners[$0] != nil } ?? true
  }

  private func react(_ s: Subscription, _ source: FamilySource, _ value: Int) {
    guard s.reaction.fires(on: value) else { return }
    switch s.reaction {
    case .none: break
    case .notifySame: notify(source, value + 1, sender: nil)
    case .notifyEvent: notify(.event, value + 1, sender: nil)
    case .disposeSelf: s.token?.dispose()
    case .disposeNewest: subscriptions.last(where: isSelectable)?.token?.dispose()
    case .observeSame: observe(source, .plain, .none, owner: nil, filter: nil)
    }
  }
}

// MARK: - The test

@Suite("Model-based: hubs and the shared family")
struct ModelBasedFamilyTests {
  static let operations = 20_000
  static let stepsPerTurn = 100

  @MainActor
  @Test("20,000 random operations over six sources and every delivery form match the reference model after every step")
  func randomWalk() async {
    let seed = ProcessInfo.processInfo.environment["OBSERVABLEKIT_MODEL_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 0...UInt64.max)
    if let failure = await Self.walk(seed: seed, operations: Self.operations).failure {
      Issue.record("""
        Model mismatch with seed \(seed) after \(failure.prefix.count) operations.
        \(failure.message)
        Last operations: \(failure.prefix.suffix(12).map(\.description).joined(separator: ", "))
        Replay: OBSERVABLEKIT_MODEL_SEED=\(seed) swift test --filter ModelBasedFamily
        """)
    }
  }

  @MainActor
  @Test("the widened walk is reproducible from its seed")
  func reproducible() async {
    let first = await Self.walk(seed: 7, operations: 2_000).logs
    let second = await Self.walk(seed: 7, operations: 2_000).logs
    #expect(first == second)
  }

  struct Failure {
    let prefix: [FamilyOperation]
    let message: String
  }

  /// Runs on the main actor (its handlers' home), and gives the main actor back every
  /// `Self.stepsPerTurn` operations: a 20,000-step walk held it for half a minute under
  /// load, and other suites' main-actor deliveries timed out waiting behind it.
  @MainActor
  static func walk(seed: UInt64, operations: Int) async -> (failure: Failure?, logs: [[Int]]) {
    var random = SeededRandom(seed: seed)
    let model = FamilyModel()
    let real = FamilySystem()
    var done: [FamilyOperation] = []
    defer { real.bag.dispose() }
    for _ in 0..<operations {
      if model.subscriptions.count > 60 {
        model.subscriptions.prefix(30).forEach { $0.ended = true }
        real.subscriptions.prefix(30).forEach { $0.token?.dispose() }
        model.subscriptions.removeFirst(30)
        real.subscriptions.removeFirst(30)
      }
      let operation = FamilyOperation.random(using: &random, subscriptions: model.subscriptions.count, owners: model.ownersAlive)
      done.append(operation)
      apply(operation, model: model, real: real)
      real.queue.sync {}  // the queue handlers have run
      if let message = compare(model, real) {
        return (Failure(prefix: done, message: message), logs(model, real))
      }
      // Nothing is pending here (the comparison just matched), so other main-actor work may run.
      if done.count % stepsPerTurn == 0 { await Task.yield() }
    }
    return (nil, logs(model, real))
  }

  /// The logs of the subscriptions whose timing is the walk's alone (not a queue's).
  static func logs(_ model: FamilyModel, _ real: FamilySystem) -> [[Int]] {
    zip(model.subscriptions, real.subscriptions).filter { $0.0.form != .queue }.map(\.1.log.values)
  }

  @MainActor
  static func apply(_ operation: FamilyOperation, model: FamilyModel, real: FamilySystem) {
    switch operation {
    case let .observe(source, form, reaction, owner, filter):
      model.observe(source, form, reaction, owner: owner, filter: filter)
      real.observe(source, form, reaction, owner: owner, filter: filter)
    case let .dispose(index):
      model.subscriptions[index].ended = true
      real.subscriptions[index].token?.dispose()
    case let .notify(source, value, sender):
      model.notify(source, value, sender: sender)
      real.notify(source, value, sender: sender)
    case let .putInBag(index):
      model.bag.append(model.subscriptions[index].id)
      real.subscriptions[index].token?.disposed(by: real.bag)
    case .disposeBag:
      for id in model.bag { model.subscriptions.first { $0.id == id }?.ended = true }
      model.bag = []
      real.bag.dispose()
      real.bag = DisposeBag()
    case .newOwner:
      model.ownersAlive.append(true)
      real.owners.append(FamilySystem.Owner())
    case let .releaseOwner(owner):
      model.ownersAlive[owner] = false
      real.owners[owner] = nil
    case let .unsubscribe(source, owner):
      if model.ownersAlive[owner] { model.unsubscribe(source, owner: owner) }
      real.unsubscribe(source, owner: owner)
    case let .releaseSource(source):
      model.releaseSource(source)
      real.releaseSource(source)
    }
  }

  static func compare(_ model: FamilyModel, _ real: FamilySystem) -> String? {
    guard model.subscriptions.count == real.subscriptions.count else {
      return "model has \(model.subscriptions.count) subscriptions, real \(real.subscriptions.count)"
    }
    for (index, (m, r)) in zip(model.subscriptions, real.subscriptions).enumerated() {
      let heard = r.log.values
      if !m.pending.isEmpty {
        // A queue subscription hears all it was handed, unless it was disposed meanwhile:
        // then those its queue had not yet taken are dropped, so it hears a prefix of them.
        let taken = heard.count - m.log.count
        if m.ended, heard.starts(with: m.log), taken >= 0, m.pending.starts(with: heard.suffix(taken)) {
          m.log = heard
        } else {
          m.log += m.pending
        }
        m.pending = []
      }
      if m.log != heard {
        return "subscription #\(index) (\(m.source) \(m.form) \(m.reaction)): model heard \(m.log.suffix(8)), real \(heard.suffix(8))"
      }
      if let expected = model.expectedDisposed(m), let token = r.token, token.isDisposed != expected {
        return "subscription #\(index) (\(m.source) \(m.form)): isDisposed \(token.isDisposed), model \(expected)"
      }
    }
    for source in FamilySource.allCases
    where !(model.minimumCount(source)...model.count(source)).contains(real.count(source)) {
      return "\(source) observerCount: model \(model.minimumCount(source))...\(model.count(source)), real \(real.count(source))"
    }
    for source in [FamilySource.property, .sharedProperty] {
      let value = source == .property ? real.property.value : real.sharedProperty.value
      if model.sources[source.rawValue].value != value {
        return "\(source) value: model \(model.sources[source.rawValue].value), real \(value)"
      }
    }
    return nil
  }
}
