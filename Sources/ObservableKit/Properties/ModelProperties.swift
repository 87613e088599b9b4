import ObservableKitShims

/// A ``Property`` of any value type, for the change stream of a ``PropertyModel``.
protocol ModelProperty: AnyObject {
  /// Registers `handler` for the sets made from now on, without the value.
  func observeSets(_ handler: @escaping () -> Void) -> any Disposable
}

extension Property: ModelProperty {
  func observeSets(_ handler: @escaping () -> Void) -> any Disposable {
    observeChanges { (_: T) in handler() }
  }
}

/// How ``PropertyModel/propertyChanges`` finds a model's properties.
@usableFromInline
enum ModelFieldPath: String, CaseIterable, Sendable {
  /// `Mirror` over the model and its superclasses, when `propertyChanges` is read: every
  /// stored `Property<…>` or `Property<…>?` field, wrapped or not, in declaration order.
  case mirror
  /// What the `@Property` wrappers registered: each wrapper's property, from its first
  /// access through the wrapper (`model.score`) or its projection (`model.$score`); a
  /// property registered after a subscription began is joined to it then.
  case registration
}

/// Finds a model's properties, by `Mirror` where that is safe and by the wrappers'
/// registration elsewhere.
///
/// Why not always `Mirror`: a mirror resolves the type of every field, and on Apple runtimes
/// before macOS 15 / iOS 18 (tvOS 18, watchOS 11, visionOS 2) resolving a
/// `nonisolated(nonsending)` function type that the Swift 6.2 compiler emitted calls a weakly
/// linked runtime function those runtimes lack, and crashes (swiftlang/swift#85017, #86411;
/// the Swift 6.3 compiler emits code that does not). Such closures are what a model stores
/// by default in a module built with Xcode 26's new-app settings. Nothing here reads the
/// runtime's metadata or descriptor layouts: only `Mirror`, key paths and the property
/// wrapper's enclosing-instance subscripts (SE-0258), which the language supports.
@usableFromInline
enum ModelProperties {
  // MARK: - The path

  /// The path of this process: `Mirror` where it is safe, the registration elsewhere.
  ///
  /// - Built by Swift 6.3 or later: `Mirror`, on every runtime.
  /// - Built by Swift 6.2 for an Apple platform: `Mirror` from macOS 15, iOS 18, tvOS 18,
  ///   watchOS 11, visionOS 2 on, the registration before (and in a debug build run with
  ///   `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1`, which stands for the runtimes before 26,
  ///   the oldest of which crash).
  /// - Built by Swift 6.2 elsewhere (Linux, Windows): `Mirror`, whose runtime is the
  ///   toolchain's own.
  ///
  /// In a debug build, `OBSERVABLEKIT_MODEL_FIELDS=mirror` or `=registration` forces a path
  /// (read once, at the first read of `propertyChanges`).
  ///
  /// The compiler checked is the one that built this library; SwiftPM and Xcode build a
  /// package and the app that uses it with one toolchain. A model in a binary framework
  /// that Swift 6.2 built, used by this library built with 6.3, is the case this cannot see.
  static let path: ModelFieldPath = {
    #if DEBUG
    if okit_model_fields_requested(ModelFieldPath.mirror.rawValue) { return .mirror }
    if okit_model_fields_requested(ModelFieldPath.registration.rawValue) { return .registration }
    #endif
    return defaultPath
  }()

  /// The path without the debug switch.
  static var defaultPath: ModelFieldPath {
    #if compiler(>=6.3) || !canImport(Darwin)
    return .mirror
    #else
    return swift62ApplePath
    #endif
  }

  /// The path of a library that Swift 6.2 built for an Apple OS. Compiled by every build,
  /// so that the toolchains that do not take it still type-check it.
  static var swift62ApplePath: ModelFieldPath {
    // The simulated path before the 26 releases stands for the oldest runtimes, which crash.
    #if DEBUG
    if okit_simulate_os_before_26_requested() { return .registration }
    #endif
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) { return .mirror }
    return .registration
  }

  /// Whether the wrappers register their properties with their model. Always in a debug
  /// build, so that tests run both paths in one process; in a release build only on the
  /// registration path, and never when Swift 6.3 built the library (a constant: the
  /// wrapper's accessors then pay nothing).
  @inlinable
  static var wrappersRegister: Bool {
    #if DEBUG
    return true
    #elseif compiler(>=6.3) || !canImport(Darwin)
    return false
    #else
    return registrationPathTaken
    #endif
  }

  /// `path == .registration`, for the wrappers' accessors.
  @usableFromInline static let registrationPathTaken = path == .registration

  // MARK: - The change stream

  /// The change stream of `model` found on `path`.
  static func changes(of model: AnyObject, path: ModelFieldPath) -> ReadOnlyEvent<String> {
    switch path {
    case .mirror:
      let properties = reflectedProperties(of: model)
      return ReadOnlyEvent { handler in
        CompositeDisposable(properties.map { name, property in
          property.observeSets { handler(name) }
        })
      }
    case .registration:
      // Weakly: the event holds no reference to the model.
      return ReadOnlyEvent { [weak model] handler in
        guard let model else { return CompositeDisposable([]) }
        return ModelRegistry.shared.subscribe(to: model, handler)
      }
    }
  }

  /// The properties of `model` found on `path`, in the order `propertyChanges` registers on
  /// them, with their declared names.
  static func properties(
    of model: AnyObject, path: ModelFieldPath = ModelProperties.path
  ) -> [(name: String, property: any ModelProperty)] {
    switch path {
    case .mirror: reflectedProperties(of: model)
    case .registration: ModelRegistry.shared.properties(of: model)
    }
  }

  // MARK: - By Mirror

  /// The stored properties of `model` that are ``Property`` values, with their declared
  /// names, superclasses first, in declaration order. `@Property var score` is stored as
  /// `_score`: the underscore is dropped. `lazy var stats = Property(0)` is stored as an
  /// optional named `$__lazy_storage_$_stats`: the prefix is dropped, and it is found once
  /// it has been made (a lazy property not yet read holds nil). A `Property<…>?` field is
  /// found while it holds one, a `weak` one too (`Mirror` does not say how a field holds it).
  static func reflectedProperties(of model: AnyObject) -> [(name: String, property: any ModelProperty)] {
    var mirrors = [Mirror]()
    var mirror: Mirror? = Mirror(reflecting: model)
    while let current = mirror {
      mirrors.append(current)
      mirror = current.superclassMirror
    }
    return mirrors.reversed().flatMap { mirror in
      mirror.children.compactMap { child -> (name: String, property: any ModelProperty)? in
        guard let property = child.value as? any ModelProperty, let label = child.label else { return nil }
        return (declaredName(label), property)
      }
    }
  }

  /// The prefix the compiler gives the storage of a `lazy var`.
  static let lazyStoragePrefix = "$__lazy_storage_$_"

  /// The name a property was declared with, from the label of its storage.
  static func declaredName(_ label: String) -> String {
    if label.hasPrefix(lazyStoragePrefix) { return String(label.dropFirst(lazyStoragePrefix.count)) }
    return label.hasPrefix("_") ? String(label.dropFirst()) : label
  }

  // MARK: - By registration

  /// The declared name of the wrapped property whose storage `keyPath` names (`\Game._score`
  /// names `score`), or nil if no supported API tells.
  ///
  /// The name comes from the key path's debug description (SE-0369: `\Game._score`), which
  /// the standard library builds from the reflection metadata of the one field the key path
  /// names: it resolves that field's type, a `Property`, and no other's. Its format is not
  /// promised stable, so only a last component that is an identifier is taken; before the
  /// releases that have it (macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4), or in a module
  /// built without reflection metadata (`<offset 16 (Property<Int>)>`), there is none.
  static func declaredName(of keyPath: AnyKeyPath) -> String? {
    guard #available(macOS 13.3, iOS 16.4, tvOS 16.4, watchOS 9.4, *) else { return nil }
    let description = keyPath.debugDescription
    guard let dot = description.lastIndex(of: ".") else { return nil }
    let label = description[description.index(after: dot)...]
    guard let first = label.first, first == "_" || first.isLetter,
      label.allSatisfy({ $0 == "_" || $0 == "$" || $0.isLetter || $0.isNumber })
    else { return nil }
    return declaredName(String(label))
  }
}

/// The properties the `@Property` wrappers registered, per model, and the subscriptions of
/// the registration path's `propertyChanges`.
///
/// A wrapper registers its property at its first access through the model (the wrapped
/// property or the projection), from the enclosing-instance subscript, which is the only
/// place that knows both the model and the property: `init(wrappedValue:)` runs before the
/// model exists. The registry remembers it by the property's identity, so a later access
/// pays the registry's lock and one dictionary lookup, and only where the wrappers register
/// at all (``ModelProperties/wrappersRegister``).
///
/// A subscription joins every property registered so far, and each property registered
/// while it lives: a property first used after `propertyChanges` was observed is heard from
/// that first use on, and the set that first uses it is heard too, since registering
/// happens before the set. Each (subscription, property) pair is joined exactly once: both
/// sides list the other under the registry's lock.
final class ModelRegistry: @unchecked Sendable {
  // `@unchecked Sendable`: `models` is only touched holding `lock`, and so are the fields
  // of the entries and subscriptions it holds (see `Subscription`).

  static let shared = ModelRegistry()

  /// A property a wrapper registered.
  struct Field {
    let keyPath: AnyKeyPath
    /// Its place in the order of first access, from 1.
    let place: Int
    /// Its name, worked out when a subscription first needs it (a debug build registers
    /// every wrapper, whichever path it takes): see `name()`.
    var cachedName: String?
    weak var property: (any ModelProperty)?

    /// Its declared name, or `"#n"`, its place, where none can be known (see
    /// ``ModelProperties/declaredName(of:)``).
    mutating func name() -> String {
      if let cachedName { return cachedName }
      let name = ModelProperties.declaredName(of: keyPath) ?? "#\(place)"
      cachedName = name
      return name
    }
  }

  /// One model's properties and subscriptions.
  final class Entry {
    weak var model: AnyObject?
    var fields: [Field] = []
    /// The index in `fields` of each registered property, by its identity. An identity is
    /// taken as registered only while that field still holds that very object (its
    /// reference is weak), so a new property at a dead one's address registers anew.
    var fieldIndex: [ObjectIdentifier: Int] = [:]
    var subscriptions: [Subscription] = []

    init(model: AnyObject) {
      self.model = model
    }
  }

  /// A registration-path subscription of `propertyChanges`: its handler and its
  /// subscriptions on the properties. Its fields are guarded by the registry's lock.
  final class Subscription: Disposable, @unchecked Sendable {
    // `@unchecked Sendable`: `parts` and `disposed` are guarded by the registry's lock.
    // `handler` is the user's plain closure, kept as the engine keeps a confined handler
    // (`InlineSubscription` holds its storage the same way): it is called only from the
    // handlers of the model's own properties, which run in the model's isolation domain,
    // the one that read `propertyChanges` (a `Property` and its model are not `Sendable`, so
    // the compiler keeps both there). What crosses threads is only the token's `dispose()`,
    // which never calls `handler`, and releases it after the lock.
    let handler: (String) -> Void
    var parts: [any Disposable] = []
    var disposed = false
    let registry: ModelRegistry
    let modelID: ObjectIdentifier

    init(handler: @escaping (String) -> Void, registry: ModelRegistry, modelID: ObjectIdentifier) {
      self.handler = handler
      self.registry = registry
      self.modelID = modelID
    }

    func dispose() {
      let parts = registry.lock.withLock { models -> [any Disposable] in
        guard !disposed else { return [] }
        disposed = true
        if let entry = models[modelID] { entry.subscriptions.removeAll { $0 === self } }
        defer { self.parts = [] }
        return self.parts
      }
      for part in parts { part.dispose() }
    }

    var isDisposed: Bool { registry.lock.withLock { _ in disposed } }
  }

  /// The entries by model. An entry whose model has gone is dropped by a sweep, when the
  /// entries have doubled since the last one, or replaced when its identifier is reused.
  let lock = Locked<[ObjectIdentifier: Entry]>([:])
  /// Guarded by `lock`.
  private var sweepAt = 16

  /// The entry of `model`, made if there is none or if the one there was another model's.
  /// The entries it drops go to `dropped`, to be released after the lock is let go of: a
  /// subscription's handler may be released with them, and its captures' deinits are user
  /// code.
  private func entryLocked(
    _ models: inout [ObjectIdentifier: Entry], _ model: AnyObject, dropping dropped: inout [Entry]
  ) -> Entry {
    let id = ObjectIdentifier(model)
    if let entry = models[id] {
      if entry.model === model { return entry }
      dropped.append(entry)
    }
    if models.count >= sweepAt {
      for (key, entry) in models where entry.model == nil {
        dropped.append(entry)
        models[key] = nil
      }
      sweepAt = max(16, models.count * 2)
    }
    let entry = Entry(model: model)
    models[id] = entry
    return entry
  }

  /// Registers `property`, the storage of `model` that `keyPath` names, once; joins it to
  /// the model's live subscriptions. Called by the wrappers' accessors (see
  /// `Property.registerWithModel`).
  func register(_ property: any ModelProperty, of model: AnyObject, at keyPath: AnyKeyPath) {
    var dropped: [Entry] = []
    defer { withExtendedLifetime(dropped) {} }
    lock.withLock { models in
      let entry = entryLocked(&models, model, dropping: &dropped)
      let id = ObjectIdentifier(property)
      if let known = entry.fieldIndex[id], entry.fields[known].property === property { return }
      let index: Int
      if let known = entry.fields.firstIndex(where: { $0.keyPath == keyPath }) {
        // Another property now stands in the same storage (`_score` was replaced).
        index = known
        if let old = entry.fields[index].property { entry.fieldIndex[ObjectIdentifier(old)] = nil }
        entry.fields[index].property = property
      } else {
        index = entry.fields.count
        entry.fields.append(Field(keyPath: keyPath, place: index + 1, property: property))
      }
      if entry.subscriptions.contains(where: { !$0.disposed }) {
        join(entry.subscriptions, property, entry.fields[index].name())
      }
      entry.fieldIndex[id] = index
    }
  }

  /// Joins each of `subscriptions` to `property`. Runs no user code: a subscription
  /// without replay only adds to the property's list.
  private func join(_ subscriptions: [Subscription], _ property: any ModelProperty, _ name: String) {
    for subscription in subscriptions where !subscription.disposed {
      subscription.parts.append(property.observeSets { [handler = subscription.handler] in handler(name) })
    }
  }

  /// A subscription of `handler` to the properties `model` has registered, and to those it
  /// registers while the subscription lives.
  func subscribe(to model: AnyObject, _ handler: @escaping (String) -> Void) -> any Disposable {
    let subscription = Subscription(handler: handler, registry: self, modelID: ObjectIdentifier(model))
    var dropped: [Entry] = []
    defer { withExtendedLifetime(dropped) {} }
    lock.withLock { models in
      let entry = entryLocked(&models, model, dropping: &dropped)
      entry.subscriptions.append(subscription)
      for index in entry.fields.indices {
        guard let property = entry.fields[index].property else { continue }
        let name = entry.fields[index].name()
        subscription.parts.append(property.observeSets { handler(name) })
      }
    }
    return subscription
  }

  /// The live properties `model` has registered, in the order of their first access.
  func properties(of model: AnyObject) -> [(name: String, property: any ModelProperty)] {
    lock.withLock { models in
      guard let entry = models[ObjectIdentifier(model)], entry.model === model else { return [] }
      return entry.fields.indices.compactMap { index in
        entry.fields[index].property.map { (entry.fields[index].name(), $0) }
      }
    }
  }
}
