import Foundation
import Testing
import TestSupport

@testable import ObservableKit

// Swift 6 mode: the models store what a new app's module stores by default, a
// `nonisolated(nonsending)` async closure, beside the fields `propertyChanges` must step over.

/// A model with a stored `nonisolated(nonsending)` closure, a `@concurrent` one, a `lazy var`,
/// optional fields, and `Property` values that are not wrappers (found by `Mirror` only).
class PathBaseModel: PropertyModel {
  @Property var score = 0
  /// An optional wrapped value.
  @Property var nickname: String? = nil
  var load: nonisolated(nonsending) () async -> Void = {}
  var concurrentLoad: @concurrent () async -> Void = {}
  var callback: (Int) -> Void = { _ in }
  /// A lazy field that is not a property.
  lazy var history: [Int] = []
  /// A lazy property: `Mirror` finds it once made.
  lazy var stats = Property(0)
  /// An optional property field: `Mirror` finds it while it holds one.
  var spare: Property<Int>? = Property(0)
  /// Another object's property: `Mirror` finds it too (it cannot tell weak from strong).
  weak var borrowed: Property<Int>?
}

/// A subclass adding fields of its own.
final class PathDerivedModel: PathBaseModel {
  @Property var level = 1
  @Property var title = ""
  var onLevel: nonisolated(nonsending) (Int) async -> Void = { _ in }
}

/// A generic model, with a wrapped property.
final class PathGenericModel<Payload>: PropertyModel {
  let payload: Payload
  @Property var count = 0
  init(payload: Payload) { self.payload = payload }
  /// The storage's key path, which only the class can name.
  static var countStorage: AnyKeyPath { \PathGenericModel._count }
}

/// `PropertyModel.propertyChanges` on both of its paths, `Mirror` and the wrappers'
/// registration (see `ModelProperties`), forced here in one process; run by `.ci/run` on the
/// normal and on the simulated pre-26 path (`OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1`).
@Suite("PropertyModel paths")
struct PropertyModelPathTests {
  /// What a set through the wrapper and through the projection reports, the same on every path.
  func changeEveryWay(_ model: PathDerivedModel) {
    model.score = 1  // the wrapped property
    model.$score.value = 5  // the projection
    model.nickname = "ace"  // an optional wrapped value
    model.nickname = nil
    model.$level.value = 2
    model.title = "t"
    _ = model.history  // a lazy field that is not a property
    model.history.append(1)
    model.score += 1  // a read, then one set
    model.$level.modify { $0 += 1 }
    model.load = {}
  }

  static let changedNames = ["score", "score", "nickname", "nickname", "level", "title", "score", "level"]

  @Test("Contract: propertyChanges names each changed field once, in order, on each path, read before any access", arguments: ModelFieldPath.allCases)
  func namesEachChangedFieldOnceInOrder(path: ModelFieldPath) {
    let model = PathDerivedModel()
    let changes = ModelProperties.changes(of: model, path: path)
    let names = ValueLog<String>()
    let token = changes.observe(names.handler)
    changeEveryWay(model)
    #expect(names.values == Self.changedNames)
    #expect(model.score == 6 && model.level == 3 && model.nickname == nil)
    token.dispose()
    for property in [model.$score, model.$level] { #expect(property.observerCount == 0) }
    #expect(model.$nickname.observerCount == 0 && model.$title.observerCount == 0)
    model.score = 7
    #expect(names.values == Self.changedNames, "nothing after dispose")
  }

  @Test("Contract: propertyChanges names each changed field once, in order, when the fields were used before it was read", arguments: ModelFieldPath.allCases)
  func namesFieldsUsedBefore(path: ModelFieldPath) {
    let model = PathDerivedModel()
    changeEveryWay(model)
    let names = ValueLog<String>()
    let token = ModelProperties.changes(of: model, path: path).observe(names.handler)
    changeEveryWay(model)
    #expect(names.values == Self.changedNames)
    token.dispose()
  }

  @Test("Contract: the public propertyChanges, on this process's path")
  func publicPropertyChanges() {
    let model = PathDerivedModel()
    let names = ValueLog<String>()
    let token = model.propertyChanges.observe(names.handler)
    changeEveryWay(model)
    #expect(names.values == Self.changedNames)
    #expect(model.$score === model.$score, "the projection is the same property on every read")
    token.dispose()
  }

  @Test("Contract: the superclass's fields and the subclass's, in declaration order on the Mirror path, first-access order on the registration path")
  func propertyOrder() {
    let model = PathDerivedModel()
    model.spare = nil
    _ = model.$title
    _ = model.$score
    #expect(ModelProperties.properties(of: model, path: .mirror).map(\.name) == ["score", "nickname", "level", "title"])
    #expect(ModelProperties.properties(of: model, path: .registration).map(\.name) == ["title", "score"])
  }

  @Test("Contract: only the Mirror path finds a Property that is not a wrapper (let, lazy, optional, weak)")
  func mirrorOnlyFields() {
    let model = PathDerivedModel()
    let shared = Property(0)
    model.borrowed = shared
    _ = model.stats
    let names = [ModelFieldPath.mirror, .registration].map { path in
      let names = ValueLog<String>()
      let token = ModelProperties.changes(of: model, path: path).observe(names.handler)
      model.stats.value = 1
      model.spare?.value = 1
      shared.value = 1
      model.title = "x"
      token.dispose()
      return names.values
    }
    #expect(names[0] == ["stats", "spare", "borrowed", "title"])
    #expect(names[1] == ["title"])
  }

  @Test("A generic model, and a storage key path's declared name")
  func names() {
    let model = PathGenericModel(payload: { @Sendable in })
    let names = ValueLog<String>()
    let token = ModelProperties.changes(of: model, path: .registration).observe(names.handler)
    model.count = 1
    #expect(names.values == ["count"])
    token.dispose()
    #expect(ModelProperties.declaredName(of: PathGenericModel<Int>.countStorage) == "count")
    #expect(ModelProperties.declaredName(of: \PathGenericModel<Int>.payload) == "payload", "a stored field of a final class")
    // An overridable stored property's key path goes through its accessors (a wrapper's
    // storage is private, hence final, and its key path names the field).
    #expect(ModelProperties.declaredName(of: \PathBaseModel.spare) == nil, "a computed component has no field name")
  }

  @Test("Registration path: a subscription joins a property first used later, exactly once, after the handlers that property had")
  func registrationJoinsOnce() {
    let model = PathDerivedModel()
    let order = ValueLog<String>()
    let first = ModelProperties.changes(of: model, path: .registration).observe { order.record("first \($0)") }
    let second = ModelProperties.changes(of: model, path: .registration).observe { order.record("second \($0)") }
    model.score = 1
    #expect(order.values == ["first score", "second score"])
    #expect(model.$score.observerCount == 2, "one subscription each, however often it is used")
    first.dispose()
    #expect(first.isDisposed && !second.isDisposed)
    model.score = 2
    #expect(order.values == ["first score", "second score", "second score"])
    second.dispose()
    #expect(model.$score.observerCount == 0)
  }

  @Test("Registration path: the event and its subscription hold no reference to the model")
  func registrationHoldsNoModel() {
    let names = ValueLog<String>()
    weak var weakModel: PathDerivedModel?
    var score: Property<Int>?
    var token: (any Disposable)?
    var changes: ReadOnlyEvent<String>?
    do {
      let model = PathDerivedModel()
      weakModel = model
      changes = ModelProperties.changes(of: model, path: .registration)
      token = changes!.observe(names.handler)
      model.score = 1
      score = model.$score
    }
    #expect(weakModel == nil)
    score!.value = 2
    #expect(names.values == ["score", "score"], "the subscription lives as long as the property")
    let late = changes!.observe(names.handler)
    #expect(late.isDisposed, "observing it once the model has gone observes nothing")
    token!.dispose()
    late.dispose()
    #expect(score!.observerCount == 0)
  }

  @Test("Registration path: first uses racing on many threads register once; later sets are each heard once")
  func registrationRace() {
    nonisolated(unsafe) let model = PathDerivedModel()
    let names = ValueLog<String>()
    let token = ModelProperties.changes(of: model, path: .registration).observe(names.handler)
    let perThread = 200
    race(threads: 4) { index in
      for _ in 0..<perThread {
        if index.isMultiple(of: 2) { model.$score.modify { $0 += 1 } } else { model.title = "\(index)" }
      }
    }
    // Concurrent sets may coalesce (a superseded value is skipped), so only the joins are
    // counted exactly: one subscription on each property.
    #expect(model.score == 2 * perThread)
    #expect(model.$score.observerCount == 1 && model.$title.observerCount == 1)
    #expect(Set(names.values) == ["score", "title"])
    let before = names.count
    model.score = 0
    model.title = ""
    #expect(Array(names.values.dropFirst(before)) == ["score", "title"])
    token.dispose()
  }

  @Test("The debug switch OBSERVABLEKIT_MODEL_FIELDS forces the path; otherwise Mirror where this toolchain makes it safe")
  func switchFollowsTheEnvironment() {
    let requested = ProcessInfo.processInfo.environment["OBSERVABLEKIT_MODEL_FIELDS"]
    if let forced = requested.flatMap(ModelFieldPath.init(rawValue:)) {
      #expect(ModelProperties.path == forced)
    } else {
      #expect(ModelProperties.path == ModelProperties.defaultPath)
      if MainActorNow.simulatesOSBefore26 {
        #expect(ModelProperties.swift62ApplePath == .registration, "a Swift 6.2 build for an Apple OS registers on the simulated path")
      }
      #if compiler(>=6.3) || !canImport(Darwin)
      #expect(ModelProperties.path == .mirror, "Swift 6.3 builds, and other runtimes than Apple's, use Mirror")
      #endif
    }
  }
}
