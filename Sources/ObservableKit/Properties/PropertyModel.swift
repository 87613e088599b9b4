/// A class whose ``Property`` values can be observed as one stream of changes: adopt it to
/// get ``propertyChanges``, which needs no macro and no stored member.
///
/// ```swift
/// final class Game: PropertyModel {
///   @Property var score = 0
///   @Property var level = 1
/// }
///
/// game.propertyChanges.observe { name in print(name, "changed") }.disposed(by: bag)
/// game.score += 10   // prints "score changed"
/// ```
///
/// Use it where SwiftUI's `ObservableObject` would use `objectWillChange`: to save a model
/// after any change, mark it dirty, or refresh a view that shows all of it. Unlike
/// `objectWillChange` it reports after the set, with the new value already in place, and it
/// says which property changed. To react to one property, observe it (`game.$score`).
///
/// The protocol has no requirements, so a `@MainActor` class adopts it as it is.
public protocol PropertyModel: AnyObject {}

extension PropertyModel {
  /// One event for every set of every ``Property`` the model stores, delivering the name of
  /// the property that was set: `"score"` for `@Property var score`, for
  /// `let score = Property(0)` and for `lazy var score = Property(0)`. A `lazy` property
  /// is found only if it has been made (read once) when this member is read.
  ///
  /// Observing it observes each of the model's properties, found when this member is read:
  /// the stored properties of the class and of its superclasses whose type is `Property<…>`
  /// or `Property<…>?`, held strongly, in declaration order, superclasses first. They are
  /// found from the runtime's type descriptors, which name each field's type without
  /// resolving it, so no other field's type metadata is read (resolving a
  /// `nonisolated(nonsending)` closure's type crashes Apple runtimes before macOS 15 / iOS 18
  /// when Swift 6.2 built it). A handler runs where and when the property's own handlers
  /// run (synchronously on the setting thread, after the handlers that property had before
  /// this subscription), with the same re-entrancy rules. There is no replay: it hears the
  /// sets made after it is registered.
  ///
  /// It costs nothing until observed. Each subscription holds one subscription per property
  /// and no reference to the model; disposing it ends them all.
  public var propertyChanges: ReadOnlyEvent<String> {
    let properties = ModelProperties.properties(of: self)
    return ReadOnlyEvent { handler in
      CompositeDisposable(properties.map { name, property in
        property.observeSets { handler(name) }
      })
    }
  }
}
