#if canImport(Observation)
import Observation
#endif

/// Connects a ``Property`` to Swift Observation where the platform has it, so that reading
/// `value` inside `withObservationTracking` (or a SwiftUI view body) registers the access and
/// a set triggers `onChange`.
///
/// The registrar is made lazily, by the first read of `value`, under the storage lock: a
/// property nobody has read cannot be tracked, so until then it costs no memory (a registrar
/// and its key path are several times a property's own size) and its sets skip
/// Observation's `willSet` and `didSet`. A set checks for the registrar in the critical
/// section where it would store the value, so a read that makes the registrar either comes
/// after the set (and reads the new value) or before it (and the set reports the mutation).
///
/// The registrar's type needs macOS 14 / iOS 17, later than the package supports, so it is
/// kept as an `AnyObject` and used only behind an availability check.
@usableFromInline
enum ObservationSupport {
  /// A registrar for a property of `T`, if the platform has Observation.
  @usableFromInline
  static func makeRegistrar<T>(for _: T.Type) -> (any AnyObject & Sendable)? {
    #if canImport(Observation)
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
      return Registrar<T>()
    }
    #endif
    return nil
  }

  /// Reports a read of `property.value` to an enclosing observation tracking.
  @usableFromInline
  static func reportAccess<T>(_ property: Property<T>, _ registrar: any AnyObject & Sendable) {
    #if canImport(Observation)
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
      let registrar = unsafeDowncast(registrar, to: Registrar<T>.self)
      registrar.registrar.access(property, keyPath: registrar.keyPath)
    }
    #endif
  }

  /// Runs `mutation` as a change of `property`. Call with no lock held: `willSet` runs
  /// `onChange`.
  @usableFromInline
  static func reportMutation<T, R>(
    of property: Property<T>,
    _ registrar: any AnyObject & Sendable,
    _ mutation: () -> R
  ) -> R {
    #if canImport(Observation)
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
      let registrar = unsafeDowncast(registrar, to: Registrar<T>.self)
      return registrar.registrar.withMutation(of: property, keyPath: registrar.keyPath, mutation)
    }
    #endif
    return mutation()
  }
}

#if canImport(Observation)
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class Registrar<T>: Sendable {
  let registrar = ObservationRegistrar()
  /// Made once: a key path into a generic class would otherwise be instantiated per use.
  let keyPath: KeyPath<Property<T>, T> & Sendable = \.value
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Property: Observation.Observable {}
#endif
