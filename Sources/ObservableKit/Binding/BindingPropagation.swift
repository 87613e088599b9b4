import ObservableKitShims

/// The propagation a binding's set belongs to: the set made outside any binding (by user
/// code, or a binding's start) that the bindings are carrying through the graph.
///
/// Why bindings need it: each binding alone stops its own echo, but a cycle of bindings
/// (`a↔b`, `b↔c`, `c↔a`, or one-way `a→b→c→a`, or a view of a property bound into that
/// property) carries every set round again, for ever. The rule that ends it: a set that a
/// binding makes while carrying a propagation is not made into a property this propagation
/// has already reached (its origin, or a property set by a binding of it whose frame is still
/// on this thread's stack), and a two-way binding takes part in one propagation once (see
/// `BindingCore.State.joined`). So an outside set reaches each property at most once, and
/// no equal-valued ring is refused.
///
/// Identity: a two-way binding names a propagation it starts by the set it heard (the
/// property's storage and the version: unique while the property lives, as versions only
/// grow). A one-way binding does not hear versions (its source is any read-only property), so
/// it names the propagations it starts by a process-wide serial.
@usableFromInline
struct BindingPropagation: Equatable {
  /// The storage whose set started it: a property, or for a one-way binding the storage
  /// whose pass delivered to it; nil when unknown.
  @usableFromInline let origin: ObjectIdentifier?
  @usableFromInline let version: UInt64
  @usableFromInline let serial: UInt64

  @inlinable
  init(origin: ObjectIdentifier?, version: UInt64, serial: UInt64 = 0) {
    self.origin = origin
    self.version = version
    self.serial = serial
  }

  /// The serials of one-way propagations. Its lock guards the counter only.
  static let serials = Locked<UInt64>(0)

  /// A new propagation of a one-way binding, from the storage whose pass delivers to it.
  static func oneWay(from origin: ObjectIdentifier?) -> BindingPropagation {
    BindingPropagation(origin: origin, version: 0, serial: serials.withLock { $0 += 1; return $0 })
  }
}

/// A set a binding is making, on this thread's stack for as long as the set and its
/// delivery last, linked into the thread's chain of pass frames (``PassFrame``) under an
/// owner no storage has (``marker``), so the engine's own walks never match it.
///
/// Invariant: a frame is written only by the thread that pushed it, between the push and the
/// pop, and read only by that thread (the chain is thread-local): no lock.
@usableFromInline
struct BindingFrame {
  @usableFromInline let propagation: BindingPropagation
  /// The storage of the property being set.
  @usableFromInline let target: ObjectIdentifier
  /// The version the set gives the target; written inside the set's critical section.
  @usableFromInline var version: UInt64 = 0

  @inlinable
  init(propagation: BindingPropagation, target: ObjectIdentifier) {
    self.propagation = propagation
    self.target = target
  }

  /// The owner of every binding frame: a type's identity, never a storage's.
  @usableFromInline final class Marker {}
  /// The owner of the frame a one-way binding pushes around its subscription.
  @usableFromInline final class StartMarker {}

  @inlinable static var marker: ObjectIdentifier { ObjectIdentifier(Marker.self) }
  @inlinable static var startMarker: ObjectIdentifier { ObjectIdentifier(StartMarker.self) }

  /// Runs `body` with a frame for a set of `target` in `propagation` pushed on this thread.
  @inlinable
  static func pushed<R>(
    _ propagation: BindingPropagation, target: ObjectIdentifier,
    _ body: (UnsafeMutablePointer<BindingFrame>) -> R
  ) -> R {
    var frame = BindingFrame(propagation: propagation, target: target)
    return withUnsafeMutablePointer(to: &frame) { frame in
      PassFrame.withFrame(owner: marker, queue: UnsafeMutableRawPointer(frame)) { body(frame) }
    }
  }

  /// The propagation whose binding made the set of `target` at `version`, if that set is
  /// being delivered on this thread (its frame is on the stack).
  @inlinable
  static func propagation(of target: ObjectIdentifier, version: UInt64) -> BindingPropagation? {
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: PassFrame.self)
      if frame.pointee.owner == marker, let queue = frame.pointee.queue {
        let binding = queue.assumingMemoryBound(to: BindingFrame.self)
        if binding.pointee.target == target, binding.pointee.version == version {
          return binding.pointee.propagation
        }
      }
      cursor = frame.pointee.previous
    }
    return nil
  }

  /// Whether `propagation` has reached `target`: it is its origin, or a binding of it is
  /// setting `target` on this thread.
  @inlinable
  static func hasReached(_ target: ObjectIdentifier, in propagation: BindingPropagation) -> Bool {
    if propagation.origin == target { return true }
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: PassFrame.self)
      if frame.pointee.owner == marker, let queue = frame.pointee.queue {
        let binding = queue.assumingMemoryBound(to: BindingFrame.self)
        if binding.pointee.target == target, binding.pointee.propagation == propagation { return true }
      }
      cursor = frame.pointee.previous
    }
    return false
  }

  /// What a one-way binding's handler is hearing, from the chain: the storage whose pass
  /// delivers to it (the newest pass frame), and the binding frame that set that storage if
  /// it lies right under that pass (the pass delivers that frame's set, or a set queued
  /// behind it: the caller tells them apart). A start marker met before any pass means the
  /// delivery is a replay inside a pass already in progress: its storage is unknown.
  static func delivery() -> (storage: ObjectIdentifier?, setBy: (BindingPropagation, ObjectIdentifier, UInt64)?) {
    var cursor = okit_current_frame()
    while let raw = cursor {
      let frame = raw.assumingMemoryBound(to: PassFrame.self)
      let owner = frame.pointee.owner
      cursor = frame.pointee.previous
      if owner == startMarker { return (nil, nil) }
      // A modify marker (no queue) or another binding's frame: not a pass.
      if owner == marker || frame.pointee.queue == nil { continue }
      guard let below = cursor?.assumingMemoryBound(to: PassFrame.self),
        below.pointee.owner == marker, let queue = below.pointee.queue
      else { return (owner, nil) }
      let binding = queue.assumingMemoryBound(to: BindingFrame.self).pointee
      guard binding.target == owner else { return (owner, nil) }
      return (owner, (binding.propagation, binding.target, binding.version))
    }
    return (nil, nil)
  }
}
