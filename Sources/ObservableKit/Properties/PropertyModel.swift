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
  /// the property that was set: `"score"` for `@Property var score`.
  ///
  /// A handler runs where and when the property's own handlers run (synchronously on the
  /// setting thread, after the handlers that property had when this subscription joined
  /// it), with the same re-entrancy rules. There is no replay: it hears the sets made after
  /// it is registered. It costs nothing until observed. Each subscription holds one
  /// subscription per property and no reference to the model; disposing it ends them all.
  ///
  /// ## How the properties are found
  /// Only supported APIs are used, and which one depends on where the code runs:
  ///
  /// - **`Mirror`**, when the library was built by Swift 6.3 or later (on every OS), on Linux,
  ///   and on macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2 and later. The properties
  ///   are the model's stored fields whose value is a `Property`, found when this member is
  ///   read, its superclasses' first, in declaration order: `@Property var score`,
  ///   `let score = Property(0)` and `var score: Property<Int>?` (while it holds one) are
  ///   all named `"score"`; `lazy var score = Property(0)` too, once it has been made (read
  ///   once) when this member is read.
  /// - **Registration**, when Swift 6.2 built the library for an Apple OS older than those
  ///   (where a `Mirror` of a model that stores a `nonisolated(nonsending)` closure
  ///   crashes). The properties are those of the model's `@Property` wrappers, each
  ///   registered by its first access through the model, `model.score` or `model.$score`;
  ///   a property first accessed after this subscription began joins it then, before that
  ///   access's set, so every set made through the wrapper or its projection is heard,
  ///   also when this member was read before any access. Not found on this path: a
  ///   `Property` that is not a wrapper (`let score = Property(0)`, a `lazy var`), and sets
  ///   made through the storage itself (`_score.value = 1` inside the class), which
  ///   bypass the wrapper. The name is the one the storage's key path describes (SE-0369,
  ///   `\Game._score`: `"score"`); before macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4,
  ///   which cannot describe it, a property is named `"#1"`, `"#2"`… in the order of
  ///   first access.
  ///
  /// In a debug build, the environment variable `OBSERVABLEKIT_MODEL_FIELDS=mirror` or
  /// `OBSERVABLEKIT_MODEL_FIELDS=registration` forces a path on any OS.
  public var propertyChanges: ReadOnlyEvent<String> {
    ModelProperties.changes(of: self, path: ModelProperties.path)
  }
}
