import Foundation
import Testing
import TestSupport

@testable import ObservableKit

#if canImport(Observation)
import Observation
#endif

// The models of this file: plain classes, no actor, no macro.

/// A model with every kind of stored property `propertyChanges` reports, and one it does not.
private final class Game: PropertyModel {
  @Property var score = 0
  @Property var name = ""
  @Property(observationTracking: false) var frames = 0
  let level = Property(1)
  /// Not a `Property`: invisible to `propertyChanges`.
  var plain = 0
}

/// A superclass with a wrapped and an unwrapped property, and a subclass adding its own.
private class BaseModel: PropertyModel {
  @Property var base = 0
  let baseLevel = Property("b")
}

private final class DerivedModel: BaseModel {
  @Property var derived = 0
  let derivedLevel = Property(0.5)
}

/// A model whose lifetime a `LifetimeTracker` counts.
private final class TrackedModel: PropertyModel {
  @Property var score = 0
  let level = Property(1)
  let tracked: Tracked

  init(tracked: Tracked) {
    self.tracked = tracked
  }
}

/// A value whose `+=` runs `during` between reading the old value and writing the new one,
/// so a test can act inside the window that `model.points += …` has.
private struct Points: Equatable {
  var amount: Int

  struct Increment {
    let amount: Int
    let during: () -> Void
  }

  static func += (lhs: inout Points, rhs: Increment) {
    rhs.during()
    lhs.amount += rhs.amount
  }
}

private final class Scoreboard {
  @Property var points = Points(amount: 0)
}

private final class Owner {
  let shown = ValueLog<Int>()
}

/// `@Property` on stored properties of classes; `PropertyModel.propertyChanges`. Each sentence
/// of the Contracts section "Property wrapper and models" is pinned here (the struct compile
/// error by the Consumers package).
@Suite("Property wrapper and models")
struct PropertyWrapperTests {
  // MARK: - Reading and setting

  @Test("Contract: reading model.score reads $score.value; setting it sets $score.value")
  func readAndSetForward() {
    let game = Game()
    #expect(game.score == 0)
    game.$score.value = 5
    #expect(game.score == 5, "a read of the wrapped property reads the property's value")
    game.score = 7
    #expect(game.$score.value == 7, "a set of the wrapped property sets the property's value")
    game.$score <~ 9
    #expect(game.score == 9)
    let other = Game()
    #expect(other.score == 0, "each instance has its own property")
  }

  @Test("Contract: setting model.score notifies on the setting thread, before the set returns")
  func setNotifiesSynchronouslyOnSettingThread() {
    nonisolated(unsafe) let game = Game()
    let calls = ValueLog<String>()
    let token = game.$score.observeChanges { calls.record("\($0) on \(currentThreadID())") }
    let setter = Guarded<UInt>(0)
    let heardBeforeReturn = Guarded(false)
    withWatchdog("a set of a wrapped property on another thread") {
      setter.value = currentThreadID()
      game.score = 1
      heardBeforeReturn.value = calls.count == 1
    }
    #expect(heardBeforeReturn.value)
    #expect(calls.values == ["1 on \(setter.value)"])
    token.dispose()
  }

  @Test("Contract: every set of model.score notifies, even with an equal value")
  func everySetNotifies() {
    let game = Game()
    let heard = ValueLog<Int>()
    let pairs = ValueLog<String>()
    let token = game.$score.observe(heard.handler)
    game.$score.subscribe(game) { newValue, oldValue in pairs.record("\(oldValue)->\(newValue)") }
    game.score = 0
    game.score = 0
    game.score = 3
    game.score = 3
    #expect(heard.values == [0, 0, 0, 3, 3])
    #expect(pairs.values == ["0->0", "0->0", "0->3", "3->3"])
    token.dispose()
    game.$score.unsubscribe(game)
  }

  @Test("Contract: the new value of model.score is visible before any handler runs")
  func newValueVisibleBeforeHandlers() {
    let game = Game()
    let seen = ValueLog<String>()
    let first = game.$score.observeChanges { _ in seen.record("wrapped \(game.score)") }
    let second = game.$score.observeChanges { _ in seen.record("value \(game.$score.value)") }
    game.score = 4
    #expect(seen.values == ["wrapped 4", "value 4"])
    first.dispose()
    second.dispose()
  }

  // MARK: - The projected value

  @Test("Contract: model.$score is the Property itself, the same object on every read")
  func projectedValueIsTheProperty() {
    let game = Game()
    let first: Property<Int> = game.$score
    #expect(first === game.$score)
    #expect(game.$score === game.$score)
    // The property stored behind the wrapper (`_score`) is the one `$score` returns.
    let stored = Mirror(reflecting: game).children.first { $0.label == "_score" }?.value as? Property<Int>
    #expect(stored === first)
    #expect(Game().$score !== first, "another instance has another property")
    // What is done through one read is seen through another.
    let token = first.observeChanges { _ in }
    #expect(game.$score.observerCount == 1)
    token.dispose()
    #expect(!game.$score.isObserved)
  }

  @Test("Contract: observe, observeChanges, subscribe and unsubscribe through $score are those of Property")
  func observeAndSubscribeThroughProjection() {
    final class Screen {}
    let game = Game()
    game.score = 1
    let replayed = ValueLog<Int>()
    let changes = ValueLog<Int>()
    let pairs = ValueLog<String>()
    let screen = Screen()
    let observeToken = game.$score.observe(replayed.handler)
    let changesToken = game.$score.observeChanges(changes.handler)
    game.$score.subscribe(screen) { newValue, oldValue in pairs.record("\(oldValue)->\(newValue)") }
    game.$score.subscribe(screen) { (_: Screen, newValue: Int, _: Int) in pairs.record("owner \(newValue)") }
    #expect(replayed.values == [1], "observe replays the current value")
    #expect(changes.values == [], "observeChanges does not")
    #expect(pairs.values == [], "subscribe does not")
    game.score = 2
    #expect(replayed.values == [1, 2])
    #expect(changes.values == [2])
    #expect(pairs.values == ["1->2", "owner 2"])
    game.$score.unsubscribe(screen)
    game.score = 3
    #expect(pairs.values == ["1->2", "owner 2"])
    #expect(game.$score.observerCount == 2)
    observeToken.dispose()
    changesToken.dispose()
    #expect(!game.$score.isObserved)
  }

  @Test("Contract: operators through $score are those of Property")
  func operatorsThroughProjection() {
    let game = Game()
    let doubled = game.$score.map { $0 * 2 }
    #expect(doubled.value == 0)
    let mapped = ValueLog<Int>()
    let distinct = ValueLog<Int>()
    let filtered = ValueLog<Int>()
    let tokens = [
      doubled.observe(mapped.handler),
      game.$score.removeDuplicates().observe(distinct.handler),
      game.$score.changes.filter { $0 % 2 == 1 }.map { $0 * 100 }.observe(filtered.handler),
    ]
    for value in [1, 1, 2, 3] { game.score = value }
    #expect(doubled.value == 6, "a mapped property computes its value on each read")
    #expect(mapped.values == [0, 2, 2, 4, 6])
    #expect(distinct.values == [0, 1, 2, 3])
    #expect(filtered.values == [100, 100, 300])
    #expect(game.$score.observerCount == 3)
    tokens.forEach { $0.dispose() }
    #expect(!game.$score.isObserved, "disposing releases the chains' upstream subscriptions")
  }

  @Test("Contract: values through $score is the Property's async sequence, starting with the current value")
  func valuesThroughProjection() async {
    let game = Game()
    game.score = 10
    var iterator = game.$score.values.makeAsyncIterator()
    #expect(await iterator.next() == 10)
    game.score = 11
    game.score = 12
    #expect(await iterator.next() == 11)
    #expect(await iterator.next() == 12)
  }

  @Test("Contract: owner-bound observation through $score ends with the owner")
  func ownerBoundThroughProjection() {
    let game = Game()
    var owner: Owner? = Owner()
    let shown = owner!.shown
    game.$score.observe(with: owner!) { owner, value in owner.shown.record(value) }
    #expect(shown.values == [0], "the replay")
    game.score = 1
    #expect(shown.values == [0, 1])
    #expect(game.$score.observerCount == 1)
    owner = nil
    #expect(game.$score.observerCount == 0, "stops counting once the owner's deinit has begun")
    game.score = 2
    #expect(shown.values == [0, 1])
  }

  // MARK: - Read-then-set and modify

  @Test("Contract: model.score += 1 is a read and then a set: a set made in between is lost")
  func plusEqualsIsReadThenSet() {
    nonisolated(unsafe) let board = Scoreboard()
    let heard = ValueLog<Int>()
    let token = board.$points.observeChanges { heard.record($0.amount) }
    board.points += Points.Increment(amount: 1) {
      // Between the read of `+=` and its set, another thread sets the property.
      withWatchdog("a set from another thread in the window of +=") {
        board.points = Points(amount: 100)
      }
    }
    #expect(board.points.amount == 1, "+= stored what it computed from its read: the set of 100 is lost")
    #expect(heard.values == [100, 1], "two sets, two notifications")
    token.dispose()
  }

  @Test("Contract: $score.modify is atomic: a set from another thread between its read and write is not lost")
  func modifyIsAtomic() {
    nonisolated(unsafe) let board = Scoreboard()
    let heard = ValueLog<Int>()
    let token = board.$points.observeChanges { heard.record($0.amount) }
    var runs = 0
    board.$points.modify { points in
      runs += 1
      points += Points.Increment(amount: 1) {
        guard runs == 1 else { return }
        withWatchdog("a set from another thread inside modify") {
          board.points = Points(amount: 100)
        }
      }
    }
    #expect(board.points.amount == 101, "modify ran again on the newer value")
    #expect(runs == 2)
    #expect(heard.values == [100, 101], "modify notified once")
    token.dispose()
  }

  @Test("Contract: $score.modify from 8 threads at once loses no increment")
  func modifyFromManyThreads() {
    nonisolated(unsafe) let game = Game()
    let threads = 8
    let increments = 500
    let heard = ValueLog<Int>()
    let token = game.$score.observeChanges(heard.handler)
    race(threads: threads) { _ in
      for _ in 0..<increments { game.$score.modify { $0 += 1 } }
    }
    #expect(game.score == threads * increments)
    let values = heard.values
    #expect(values.last == threads * increments, "the observer ended on the final value")
    #expect(zip(values, values.dropFirst()).allSatisfy { $0.0 < $0.1 }, "never backwards, never twice")
    token.dispose()
  }

  // MARK: - Plain classes and subclasses

  @Test("Contract: a plain class, with no actor, uses @Property from any thread")
  func plainClassOffTheMainActor() {
    let heard = ValueLog<String>()
    withWatchdog("a model made and used on another thread") {
      let game = Game()
      let thread = currentThreadID()
      let token = game.$score.observe { heard.record("\($0) \(currentThreadID() == thread)") }
      game.score += 1
      game.score += 1
      token.dispose()
    }
    #expect(heard.values == ["0 true", "1 true", "2 true"])
  }

  @Test("Contract: a subclass has its own wrapped properties and its superclass's")
  func subclassWrappedProperties() {
    let model = DerivedModel()
    let heard = ValueLog<String>()
    let tokens = [
      model.$base.observeChanges { heard.record("base \($0)") },
      model.$derived.observeChanges { heard.record("derived \($0)") },
    ]
    model.base = 1
    model.derived = 2
    #expect(model.base == 1 && model.$base.value == 1)
    #expect(model.derived == 2 && model.$derived.value == 2)
    #expect(heard.values == ["base 1", "derived 2"])
    #expect(model.$base === model.$base && model.$derived === model.$derived)
    let asBase: BaseModel = model
    asBase.base = 3
    #expect(model.base == 3, "the superclass's property, read through the subclass")
    #expect(heard.values == ["base 1", "derived 2", "base 3"])
    tokens.forEach { $0.dispose() }
  }

  // MARK: - PropertyModel.propertyChanges

  @Test("Contract: propertyChanges delivers the name of every set property, wrapped or not")
  func propertyChangesNames() {
    let game = Game()
    let names = ValueLog<String>()
    let token = game.propertyChanges.observe(names.handler)
    game.score = 1
    game.name = "x"
    game.frames = 1
    game.level.value = 2
    game.plain = 1
    game.score = 1  // an equal value is a set too
    game.$score.modify { $0 += 1 }
    game.level <~ 3
    #expect(names.values == ["score", "name", "frames", "level", "score", "score", "level"])
    token.dispose()
  }

  @Test("Contract: propertyChanges covers the superclass's properties, registered first")
  func propertyChangesSuperclassFirst() {
    let model = DerivedModel()
    // The order in which propertyChanges registers on the properties.
    #expect(ModelProperties.properties(of: model).map(\.name) == ["base", "baseLevel", "derived", "derivedLevel"])
    let names = ValueLog<String>()
    let token = model.propertyChanges.observe(names.handler)
    model.derivedLevel.value = 1
    model.derived = 1
    model.baseLevel.value = "c"
    model.base = 1
    #expect(names.values == ["derivedLevel", "derived", "baseLevel", "base"], "delivered in the order of the sets")
    for property in [model.$base, model.$derived] as [Property<Int>] { #expect(property.observerCount == 1) }
    #expect(model.baseLevel.observerCount == 1 && model.derivedLevel.observerCount == 1)
    token.dispose()
  }

  @Test("Contract: propertyChanges has no replay")
  func propertyChangesNoReplay() {
    let game = Game()
    game.score = 5
    game.level.value = 5
    let names = ValueLog<String>()
    let token = game.propertyChanges.observe(names.handler)
    #expect(names.values == [], "nothing on subscribing, although every property has a value")
    game.name = "y"
    #expect(names.values == ["name"])
    token.dispose()
  }

  @Test("Contract: propertyChanges is delivered synchronously on the setting thread")
  func propertyChangesSynchronous() {
    nonisolated(unsafe) let game = Game()
    let heard = ValueLog<String>()
    let token = game.propertyChanges.observe { heard.record("\($0) on \(currentThreadID())") }
    let setter = Guarded<UInt>(0)
    let heardBeforeReturn = Guarded(false)
    withWatchdog("a set of a model's property on another thread") {
      setter.value = currentThreadID()
      game.score = 1
      heardBeforeReturn.value = heard.count == 1
    }
    #expect(heardBeforeReturn.value)
    #expect(heard.values == ["score on \(setter.value)"])
    token.dispose()
  }

  @Test("Contract: propertyChanges runs in the set property's subscription order")
  func propertyChangesSubscriptionOrder() {
    let game = Game()
    let order = ValueLog<String>()
    let before = game.$score.observeChanges { order.record("before \($0)") }
    let changes = game.propertyChanges.observe { order.record("changed \($0)") }
    let after = game.$score.observeChanges { order.record("after \($0)") }
    let levelBefore = game.level.observeChanges { order.record("level before \($0)") }
    game.score = 1
    game.level.value = 2
    #expect(order.values == ["before 1", "changed score", "after 1", "changed level", "level before 2"])
    [before, changes, after, levelBefore].forEach { $0.dispose() }
  }

  @Test("propertyChanges follows the property's re-entrancy rules: a set inside a handler is queued")
  func propertyChangesReentrancy() {
    let game = Game()
    let order = ValueLog<String>()
    let changes = game.propertyChanges.observe { name in
      order.record("changed \(name) \(game.score)")
      if game.score == 1 { game.score = 2 }
    }
    let after = game.$score.observeChanges { order.record("after \($0)") }
    game.score = 1
    #expect(order.values == ["changed score 1", "after 1", "changed score 2", "after 2"])
    changes.dispose()
    after.dispose()
  }

  @Test("Contract: propertyChanges holds no reference to the model")
  func propertyChangesHoldsNoModel() {
    let tracker = LifetimeTracker()
    let names = ValueLog<String>()
    weak var weakModel: TrackedModel?
    var score: Property<Int>?
    var changes: ReadOnlyEvent<String>?
    var token: (any Disposable)?
    do {
      let model = TrackedModel(tracked: tracker.make())
      weakModel = model
      score = model.$score
      changes = model.propertyChanges
      token = changes!.observe(names.handler)
      model.score = 1
    }
    #expect(weakModel == nil, "the event and its subscription did not keep the model alive")
    #expect(tracker.liveCount == 0)
    #expect(names.values == ["score"])
    // The subscription lives as long as the property, not the model.
    score!.value = 2
    #expect(names.values == ["score", "score"])
    token!.dispose()
    #expect(score!.observerCount == 0)
    _ = changes
  }

  @Test("Contract: propertyChanges costs nothing until observed; disposing ends every subscription")
  func propertyChangesCostsNothingUntilObserved() {
    let game = Game()
    let counts = { [game.$score.observerCount, game.$name.observerCount, game.$frames.observerCount, game.level.observerCount] }
    let changes = game.propertyChanges
    #expect(counts() == [0, 0, 0, 0], "reading the event registers nothing")
    game.score = 1
    let first = changes.observe { _ in }
    #expect(counts() == [1, 1, 1, 1], "one subscription per property")
    let heard = ValueLog<String>()
    let second = game.propertyChanges.observe(heard.handler)
    #expect(counts() == [2, 2, 2, 2])
    first.dispose()
    #expect(counts() == [1, 1, 1, 1], "disposing one subscription ends its subscription on every property")
    second.dispose()
    #expect(counts() == [0, 0, 0, 0])
    game.score = 2
    game.level.value = 2
    #expect(heard.values == [])
    #expect(first.isDisposed && second.isDisposed)
  }
}

// MARK: - Swift Observation

#if canImport(Observation)
extension PropertyWrapperTests {
  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Contract: a read of model.score inside withObservationTracking is tracked like a read of value")
  func observationTracksWrappedRead() {
    let game = Game()
    let changed = Tally()
    let read = withObservationTracking {
      game.score
    } onChange: {
      changed.increment()
    }
    #expect(read == 0)
    game.name = "not read"
    #expect(changed.value == 0, "a property that was not read does not fire onChange")
    game.score = 1
    #expect(changed.value == 1)
    game.score = 2
    #expect(changed.value == 1, "onChange is one-shot")

    // A read of the wrapped property and a set through $score.value, and the other way round.
    let viaValue = Tally()
    _ = withObservationTracking { game.score } onChange: { viaValue.increment() }
    game.$score.value = 3
    #expect(viaValue.value == 1)
    let viaWrapped = Tally()
    _ = withObservationTracking { game.$score.value } onChange: { viaWrapped.increment() }
    game.score = 4
    #expect(viaWrapped.value == 1)
    let viaModify = Tally()
    _ = withObservationTracking { game.score } onChange: { viaModify.increment() }
    game.$score.modify { $0 += 1 }
    #expect(viaModify.value == 1)
  }

  @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
  @Test("Contract: @Property(observationTracking: false) opts out of Observation")
  func observationOptOut() {
    let game = Game()
    let changed = Tally()
    withObservationTracking {
      _ = game.frames
    } onChange: {
      changed.increment()
    }
    game.frames = 1
    game.$frames.value = 2
    game.$frames.modify { $0 += 1 }
    #expect(changed.value == 0)
    #expect(game.frames == 3)
  }
}
#endif
