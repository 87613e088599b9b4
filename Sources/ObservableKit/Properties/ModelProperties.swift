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

/// Finds a model's properties by reflection.
enum ModelProperties {
  /// The stored properties of `model` that are ``Property`` values, with their declared
  /// names, superclasses first. `@Property var score` is stored as `_score`: the underscore
  /// is dropped. `lazy var stats = Property(0)` is stored as an optional named
  /// `$__lazy_storage_$_stats`: the prefix is dropped, and it is found once it has been made
  /// (a lazy property not yet read holds nil).
  ///
  /// Found from the type descriptors (``ModelFields``), which resolve the type of no other
  /// field; `Mirror`, which resolves every field's type, only if those are not as expected.
  static func properties(of model: AnyObject) -> [(name: String, property: any ModelProperty)] {
    if let fields = ModelFields.properties(of: model) {
      return fields.compactMap { name, object in
        (object as? any ModelProperty).map { (declaredName(name), $0) }
      }
    }
    return reflectedProperties(of: model)
  }

  /// The same, by `Mirror`.
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
}
