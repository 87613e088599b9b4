import Foundation
import Testing
import TestSupport

@testable import ObservableKit

// A seeded random walk over the public API, checked after every step against a reference
// model written for clarity, not speed. The model is the Contracts article in code:
// subscription order, snapshot passes, FIFO queues for same-thread re-entrancy, the
// version gate of property subscribers, owners, bags.
//
// Replay a failure with OBSERVABLEKIT_MODEL_SEED=<seed> swift test --filter ModelBased

/// What a handler does, besides recording the value, when it receives `value`.
enum Reaction: CaseIterable {
  case none, notifyEvent, setProperty, disposeSelf, disposeEldest, disposeNewest, observeEvent, observeProperty

  /// Reactions fire on small values only, so that nested operations terminate.
  func fires(on value: Int) -> Bool {
    self != .none && value < 40 && value % 3 == 0
  }
}

enum Operation: CustomStringConvertible {
  case observeEvent(Reaction)
  case observeProperty(Reaction)
  case observePropertyChanges(Reaction)
  case observeEventWithOwner(owner: Int, Reaction)
  case dispose(Int)
  case notify(Int)
  case set(Int)
  case putInBag(Int)
  case disposeBag
  case newOwner
  case releaseOwner(Int)

  var description: String {
    switch self {
    case .observeEvent(let r): "observeEvent(\(r))"
    case .observeProperty(let r): "observeProperty(\(r))"
    case .observePropertyChanges(let r): "observePropertyChanges(\(r))"
    case .observeEventWithOwner(let o, let r): "observeEventWithOwner(owner \(o), \(r))"
    case .dispose(let i): "dispose(#\(i))"
    case .notify(let v): "notify(\(v))"
    case .set(let v): "set(\(v))"
    case .putInBag(let i): "putInBag(#\(i))"
    case .disposeBag: "disposeBag"
    case .newOwner: "newOwner"
    case .releaseOwner(let o): "releaseOwner(\(o))"
    }
  }

  static func random(using random: inout SeededRandom, subscriptions: Int, owners: Int) -> Operation {
    let reaction = Reaction.allCases.randomElement(using: &random)!
    let value = Int.random(in: 0..<60, using: &random)
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<12: return .observeEvent(reaction)
    case 12..<22: return .observeProperty(reaction)
    case 22..<28: return .observePropertyChanges(reaction)
    case 28..<34 where owners > 0: return .observeEventWithOwner(owner: Int.random(in: 0..<owners, using: &random), reaction)
    case 34..<50 where subscriptions > 0: return .dispose(Int.random(in: 0..<subscriptions, using: &random))
    case 50..<68: return .notify(value)
    case 68..<84: return .set(value)
    case 84..<90 where subscriptions > 0: return .putInBag(Int.random(in: 0..<subscriptions, using: &random))
    case 90..<93: return .disposeBag
    case 93..<96: return .newOwner
    case 96..<100 where owners > 0: return .releaseOwner(Int.random(in: 0..<owners, using: &random))
    default: return .notify(value)
    }
  }
}

// MARK: - The reference model

/// The contract, as plainly as it can be written: single-threaded, no locks, no snapshots of
/// storage, just lists and flags.
final class Model {
  enum Kind { case event, property, propertyChanges }

  final class Subscription {
    let id: Int
    let kind: Kind
    let reaction: Reaction
    let owner: Int?
    var isDisposed = false
    /// False while `observe` has not returned: the handler cannot hold its token yet.
    var hasToken = false
    var lastVersion = 0
    var log: [Int] = []

    init(id: Int, kind: Kind, reaction: Reaction, owner: Int?) {
      self.id = id
      self.kind = kind
      self.reaction = reaction
      self.owner = owner
    }
  }

  var subscriptions: [Subscription] = []  // subscription order
  private var nextID = 0
  var ownersAlive: [Bool] = []
  var bag: [Int] = []
  var value = 0
  var version = 1
  var eventQueue: [Int]?  // non-nil while an event pass runs
  var propertyQueue: [(value: Int, version: Int)]?  // non-nil while a property pass runs

  func isLive(_ s: Subscription) -> Bool {
    !s.isDisposed && (s.owner.map { ownersAlive[$0] } ?? true)
  }

  var eventObservers: Int { subscriptions.filter { $0.kind == .event && isLive($0) }.count }
  var propertyObservers: Int { subscriptions.filter { $0.kind != .event && isLive($0) }.count }

  // Subscription

  @discardableResult
  func observe(_ kind: Kind, _ reaction: Reaction, owner: Int? = nil) -> Subscription {
    nextID += 1
    let s = Subscription(id: nextID, kind: kind, reaction: reaction, owner: owner)
    subscriptions.append(s)
    switch kind {
    case .event: break
    case .propertyChanges: s.lastVersion = version
    case .property:
      // The replay: delivered at once, inside a property frame.
      inPropertyFrame { deliver(value, version: version, to: s) }
    }
    s.hasToken = true
    return s
  }

  // Events: a pass over the subscriptions registered when it began; re-entrant
  // notifications wait in a FIFO queue.

  func notify(_ v: Int) {
    if eventQueue != nil {
      eventQueue!.append(v)
      return
    }
    eventQueue = []
    eventPass(v)
    while !eventQueue!.isEmpty { eventPass(eventQueue!.removeFirst()) }
    eventQueue = nil
  }

  private func eventPass(_ v: Int) {
    for s in subscriptions.filter({ $0.kind == .event }) where isLive(s) {
      s.log.append(v)
      react(s, v)
    }
  }

  // Properties: a set stores at once; deliveries are passes like events, and a subscriber
  // only hears versions newer than the last it heard.

  func set(_ v: Int) {
    value = v
    version += 1
    let update = (value: v, version: version)
    if propertyQueue != nil {
      propertyQueue!.append(update)
      return
    }
    inPropertyFrame { propertyPass(update) }
  }

  private func inPropertyFrame(_ body: () -> Void) {
    if propertyQueue != nil { return body() }
    propertyQueue = []
    body()
    while !propertyQueue!.isEmpty { propertyPass(propertyQueue!.removeFirst()) }
    propertyQueue = nil
  }

  private func propertyPass(_ update: (value: Int, version: Int)) {
    for s in subscriptions.filter({ $0.kind != .event }) where isLive(s) {
      deliver(update.value, version: update.version, to: s)
    }
  }

  private func deliver(_ v: Int, version: Int, to s: Subscription) {
    guard version > s.lastVersion else { return }
    s.lastVersion = version
    s.log.append(v)
    react(s, v)
  }

  private func react(_ s: Subscription, _ v: Int) {
    guard s.reaction.fires(on: v) else { return }
    switch s.reaction {
    case .none: break
    case .notifyEvent: notify(v + 1)
    case .setProperty: set(v + 1)
    case .disposeSelf: if s.hasToken { s.isDisposed = true }
    case .disposeEldest: subscriptions.first(where: { isLive($0) && $0.hasToken })?.isDisposed = true
    case .disposeNewest: subscriptions.last(where: { isLive($0) && $0.hasToken })?.isDisposed = true
    case .observeEvent: observe(.event, .none)
    case .observeProperty: observe(.property, .none)
    }
  }
}

// MARK: - The real system, driven the same way

final class RealSystem: @unchecked Sendable {
  // Single-threaded by construction: the model test drives it from one thread.
  final class Subscription: @unchecked Sendable {
    var token: (any Disposable)?
    let reaction: Reaction
    let owner: Int?
    var log: [Int] = []

    init(reaction: Reaction, owner: Int?) {
      self.reaction = reaction
      self.owner = owner
    }
  }

  final class Owner: Sendable {}

  let event = ObservableEvent<Int>()
  let property = Property(0)
  var subscriptions: [Subscription] = []
  var owners: [Owner?] = []
  var bag = DisposeBag()

  @discardableResult
  func observe(_ kind: Model.Kind, _ reaction: Reaction, owner: Int? = nil) -> Subscription {
    let s = Subscription(reaction: reaction, owner: owner)
    subscriptions.append(s)
    let handler: @Sendable (Int) -> Void = { [unowned self, unowned s] value in
      s.log.append(value)
      self.react(s, value)
    }
    switch kind {
    case .event:
      if let owner {
        // An owner released earlier cannot be passed: nothing is registered, as in the model.
        if let object = owners[owner] {
          s.token = event.observe(with: object) { _, value in handler(value) }
        }
      } else {
        s.token = event.observe(handler)
      }
    case .property: s.token = property.observe(handler)
    case .propertyChanges: s.token = property.observeChanges(handler)
    }
    return s
  }

  /// A live subscription whose token a handler can reach, as the model's selection.
  private func isSelectable(_ s: Subscription) -> Bool {
    guard let token = s.token, !token.isDisposed else { return false }
    return s.owner.map { owners[$0] != nil } ?? true
  }

  private func react(_ s: Subscription, _ v: Int) {
    guard s.reaction.fires(on: v) else { return }
    switch s.reaction {
    case .none: break
    case .notifyEvent: event.notifyObservers(v + 1)
    case .setProperty: property.value = v + 1
    case .disposeSelf: s.token?.dispose()
    case .disposeEldest: subscriptions.first(where: isSelectable)?.token?.dispose()
    case .disposeNewest: subscriptions.last(where: isSelectable)?.token?.dispose()
    case .observeEvent: observe(.event, .none)
    case .observeProperty: observe(.property, .none)
    }
  }
}

// MARK: - The test

@Suite("Model-based")
struct ModelBasedTests {
  static let operations = 100_000

  @Test("100,000 random operations match the reference model after every step")
  func randomWalk() {
    let seed = ProcessInfo.processInfo.environment["OBSERVABLEKIT_MODEL_SEED"].flatMap(UInt64.init)
      ?? UInt64.random(in: 0...UInt64.max)
    if let failure = Self.run(seed: seed, operations: Self.operations) {
      Issue.record("""
        Model mismatch with seed \(seed) after \(failure.prefix.count) operations \
        (the shortest failing prefix: every shorter prefix matched).
        \(failure.message)
        Last operations: \(failure.prefix.suffix(12).map(\.description).joined(separator: ", "))
        Replay: OBSERVABLEKIT_MODEL_SEED=\(seed) swift test --filter ModelBased
        """)
    }
  }

  @Test("the walk is reproducible from its seed")
  func reproducible() {
    #expect(Self.trace(seed: 42, operations: 2_000) == Self.trace(seed: 42, operations: 2_000))
  }

  struct Failure {
    let prefix: [Operation]
    let message: String
  }

  /// Runs `operations` random steps, comparing after each; returns the first mismatch and
  /// the real handlers' logs.
  static func run(seed: UInt64, operations: Int) -> Failure? {
    walk(seed: seed, operations: operations).failure
  }

  static func walk(seed: UInt64, operations: Int) -> (failure: Failure?, logs: [[Int]]) {
    var random = SeededRandom(seed: seed)
    let model = Model()
    let real = RealSystem()
    var done: [Operation] = []
    defer { real.bag.dispose() }
    for _ in 0..<operations {
      // Keep the population bounded so each step stays cheap.
      if model.subscriptions.count > 60 {
        model.subscriptions.prefix(30).forEach { $0.isDisposed = true }
        real.subscriptions.prefix(30).forEach { $0.token?.dispose() }
        model.subscriptions.removeFirst(30)
        real.subscriptions.removeFirst(30)
      }
      let operation = Operation.random(
        using: &random, subscriptions: model.subscriptions.count, owners: model.ownersAlive.count)
      done.append(operation)
      apply(operation, model: model, real: real)
      if let message = compare(model, real) {
        return (Failure(prefix: done, message: message), real.subscriptions.map(\.log))
      }
    }
    return (nil, real.subscriptions.map(\.log))
  }

  static func apply(_ operation: Operation, model: Model, real: RealSystem) {
    switch operation {
    case .observeEvent(let r):
      model.observe(.event, r)
      real.observe(.event, r)
    case .observeProperty(let r):
      model.observe(.property, r)
      real.observe(.property, r)
    case .observePropertyChanges(let r):
      model.observe(.propertyChanges, r)
      real.observe(.propertyChanges, r)
    case .observeEventWithOwner(let owner, let r):
      model.observe(.event, r, owner: owner)
      real.observe(.event, r, owner: owner)
    case .dispose(let index):
      model.subscriptions[index].isDisposed = true
      real.subscriptions[index].token?.dispose()
    case .notify(let v):
      model.notify(v)
      real.event.notifyObservers(v)
    case .set(let v):
      model.set(v)
      real.property.value = v
    case .putInBag(let index):
      model.bag.append(model.subscriptions[index].id)
      real.subscriptions[index].token?.disposed(by: real.bag)
    case .disposeBag:
      for id in model.bag { model.subscriptions.first { $0.id == id }?.isDisposed = true }
      model.bag = []
      real.bag.dispose()
      real.bag = DisposeBag()
    case .newOwner:
      model.ownersAlive.append(true)
      real.owners.append(RealSystem.Owner())
    case .releaseOwner(let owner):
      model.ownersAlive[owner] = false
      real.owners[owner] = nil
    }
  }

  static func compare(_ model: Model, _ real: RealSystem) -> String? {
    guard model.subscriptions.count == real.subscriptions.count else {
      return "model has \(model.subscriptions.count) subscriptions, real \(real.subscriptions.count)"
    }
    for (index, (m, r)) in zip(model.subscriptions, real.subscriptions).enumerated() where m.log != r.log {
      return "subscription #\(index) (\(m.kind), \(m.reaction)): model heard \(m.log.suffix(8)), real \(r.log.suffix(8))"
    }
    if model.value != real.property.value {
      return "property value: model \(model.value), real \(real.property.value)"
    }
    if model.eventObservers != real.event.observerCount {
      return "event observerCount: model \(model.eventObservers), real \(real.event.observerCount)"
        + livenessDifferences(model, real)
    }
    if model.propertyObservers != real.property.observerCount {
      return "property observerCount: model \(model.propertyObservers), real \(real.property.observerCount)"
        + livenessDifferences(model, real)
    }
    return nil
  }

  /// The subscriptions that the model and the real system disagree are live.
  static func livenessDifferences(_ model: Model, _ real: RealSystem) -> String {
    let differing = zip(model.subscriptions, real.subscriptions).enumerated().compactMap { index, pair in
      let (m, r) = pair
      let realLive = r.token.map { !$0.isDisposed } ?? false
      return model.isLive(m) == realLive ? nil
        : "#\(index) \(m.kind) \(m.reaction) model live: \(model.isLive(m)), real live: \(realLive)"
    }
    return "; differing: " + differing.joined(separator: "; ")
  }

  /// The logs of a short walk, for the reproducibility check.
  static func trace(seed: UInt64, operations: Int) -> [[Int]] {
    walk(seed: seed, operations: operations).logs
  }
}
