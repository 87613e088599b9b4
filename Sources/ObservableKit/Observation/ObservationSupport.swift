#if canImport(Observation)
import Observation
#endif

/// Connects a ``Property`` to Swift Observation where the platform has it, so that reading
/// `value` inside `withObservationTracking` (or a SwiftUI view body) registers the access and
/// a set triggers `onChange`.
///
/// The registrar's type needs macOS 14 / iOS 17, later than the package supports, so it is
/// kept as an `AnyObject` and used only behind an availability check.
@usableFromInline
struct ObservationSupport<T>: Sendable {
  @usableFromInline let registrar: (any AnyObject & Sendable)?

  init(enabled: Bool) {
    #if canImport(Observation)
    if enabled, #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
      registrar = Registrar<T>()
      return
    }
    #endif
    registrar = nil
  }

  /// Reports a read of `property.value` to an enclosing observation tracking.
  /// Reports a read of `property`; a property created without tracking skips it inline.
  @inlinable
  func access(_ property: Property<T>) {
    if registrar != nil { reportAccess(property) }
  }

  @usableFromInline
  func reportAccess(_ property: Property<T>) {
    #if canImport(Observation)
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *), let registrar {
      let registrar = unsafeDowncast(registrar, to: Registrar<T>.self)
      registrar.registrar.access(property, keyPath: registrar.keyPath)
    }
    #endif
  }

  /// Wraps a set of `property.value`. Call with no lock held: `willSet` runs `onChange`.
  /// Runs `mutation` as a change of `property`; a property created without tracking runs it
  /// inline.
  @inlinable
  func withMutation<R>(of property: Property<T>, _ mutation: () -> R) -> R {
    registrar == nil ? mutation() : reportMutation(of: property, mutation)
  }

  @usableFromInline
  func reportMutation<R>(of property: Property<T>, _ mutation: () -> R) -> R {
    #if canImport(Observation)
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *), let registrar {
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
