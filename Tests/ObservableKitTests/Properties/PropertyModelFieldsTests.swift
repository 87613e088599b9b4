import Testing
import TestSupport

@testable import ObservableKit

/// A model that stores what `propertyChanges` must step over without resolving its type: a
/// `nonisolated(nonsending)` async closure (what a new app's module stores by default, and
/// what crashes a `Mirror` on Apple runtimes before macOS 15 / iOS 18 when built with Swift
/// 6.2), other closures, and properties held weakly, in a tuple or in an array.
private class ClosureModel: PropertyModel {
  @Property var score = 0
  var load: nonisolated(nonsending) () async -> Void = {}
  var concurrentLoad: @concurrent () async -> Void = {}
  var callback: (Int) -> Void = { _ in }
  weak var borrowed: Property<Int>?
  var pair = (Property(0), 1)
  var many = [Property(0)]
  lazy var made = Property("lazy")
  lazy var notYetMade = Property("never read")
  let level = Property(1)
}

/// A generic subclass, with a property of its own.
private final class GenericClosureModel<Payload>: ClosureModel {
  let payload: Payload
  @Property var extra = 0.5
  init(payload: Payload) { self.payload = payload }
}

/// `PropertyModel.propertyChanges` finds a model's properties without resolving the type of
/// any other field (see ModelFields.swift).
@Suite("PropertyModel fields")
struct PropertyModelFieldsTests {
  @Test("Contract: propertyChanges finds its properties from the type descriptors, stepping over closures, weak, tuple and array fields without resolving their types")
  func propertyChangesReadsNoOtherFieldType() {
    let shared = Property(7)
    let model = GenericClosureModel(payload: { @Sendable in })
    _ = model.made
    // The descriptor walk understood the model (nil would mean the Mirror fallback).
    let fields = ModelFields.properties(of: model)
    #expect(fields?.map(\.name) == ["_score", "$__lazy_storage_$_made", "level", "_extra"])
    #expect(ModelProperties.properties(of: model).map(\.name) == ["score", "made", "level", "extra"])
    #expect(ModelProperties.properties(of: model).map(\.name)
      == ModelProperties.reflectedProperties(of: model).map(\.name), "the same as Mirror finds")
    // A property held weakly is another object's: not the model's (Mirror would count it).
    model.borrowed = shared
    #expect(ModelProperties.properties(of: model).map(\.name) == ["score", "made", "level", "extra"])
    let names = ValueLog<String>()
    let token = model.propertyChanges.observe(names.handler)
    model.score = 1
    model.made.value = "set"
    model.extra = 1
    model.level.value = 2
    shared.value = 8
    model.pair.0.value = 1
    #expect(names.values == ["score", "made", "extra", "level"])
    token.dispose()
    withExtendedLifetime(shared) {}
  }
}
