import Foundation

// Observers whose conformance is isolated to the main actor (SE-0470), as every conformance
// of a main-actor type is in a module with new-app defaults (InferIsolatedConformances).
//
// A pass finds an observer's protocol with a run-time cast, and where the runtime checks
// isolated conformances (Swift 6.2 and later on Linux, Apple's 26 releases) that cast fails
// outside the main actor for such an observer: a pass on a background thread would skip it
// with no word. So a cast that fails outside the main actor is tried again on the main
// actor: the pass waits for a main-actor task that casts and calls the observer, in its
// turn, then goes on. What that second cast finds is a property of the observer's type and
// the protocol, so a refusal is remembered per pair: a type that does not conform costs one
// wait per process, not one per pass.
//
// Whether code runs on the main actor is asked of the runtime itself, by the same kind of
// cast on a probe whose conformance is isolated to the main actor. So where the runtime does
// not check (Apple before the 26 releases) the probe always conforms, and nothing is retried:
// there the first cast succeeds anywhere, and the observer is called on the pass's thread.

/// Calls `code` with `object` on the main actor if the failed cast to `Observer` was refused
/// only because the pass runs outside the main actor.
@usableFromInline
func callIfIsolatedToMainActor<Observer>(_ object: AnyObject, _ code: (Observer) -> Void) {
  MainActorConformances.call(object, code) { $0 as? Observer }
}

#if compiler(>=6.2)
/// A protocol for the probe to conform to.
private protocol MainActorProbing: AnyObject {}

/// An object whose one conformance is isolated to the main actor: the runtime lets a cast
/// see it exactly where it lets a cast see any main-actor-isolated conformance.
@MainActor
private final class MainActorProbe: @MainActor MainActorProbing {
  nonisolated init() {}
}
#endif

/// The retry on the main actor and what it learnt, per pair of observer type and protocol.
package enum MainActorConformances {
  private struct Pair: Hashable {
    let observer: ObjectIdentifier
    let protocolType: ObjectIdentifier
  }

  /// The pairs whose cast failed on the main actor too.
  private final class RefusedPairs: @unchecked Sendable {  // `pairs` is guarded by `lock`
    private let lock = NSLock()
    private var pairs = Set<Pair>()

    func contains(_ pair: Pair) -> Bool { lock.withLock { pairs.contains(pair) } }
    func insert(_ pair: Pair) { lock.withLock { _ = pairs.insert(pair) } }
    func removeAll() { lock.withLock { pairs.removeAll() } }
  }

  private static let refused = RefusedPairs()

  #if compiler(>=6.2)
  private static let probe = MainActorProbe()

  /// Whether a cast made here sees main-actor-isolated conformances: true on the main actor,
  /// and everywhere on a runtime that does not check them.
  package static var castsSeeMainActorConformances: Bool {
    conformsAtRunTime(probe, to: (any MainActorProbing).self)
  }

  /// A cast as a pass makes it, to a protocol known only at run time: not specialized, since a
  /// cast to a protocol named in the code is not checked by the runtime of Swift 6.3 on Linux.
  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  private static func conformsAtRunTime<P>(_ object: AnyObject, to _: P.Type) -> Bool {
    object is P
  }
  #else
  package static var castsSeeMainActorConformances: Bool { true }
  #endif

  /// Calls `code` with `cast(object)` on the main actor, waiting for it, unless casts here
  /// see main-actor-isolated conformances already or the pair is known not to conform. `cast`
  /// is the pass's cast; the tests pass others.
  package static func call<Observer>(
    _ object: AnyObject, _ code: (Observer) -> Void, cast: (AnyObject) -> Observer?
  ) {
    guard !castsSeeMainActorConformances else { return }
    let pair = Pair(observer: ObjectIdentifier(type(of: object)), protocolType: ObjectIdentifier(Observer.self))
    if refused.contains(pair) { return }
    let conforms = withoutActuallyEscaping(code) { code in
      withoutActuallyEscaping(cast) { cast in
        // The pass waits below until the task is done, so `object`, `code` and `cast` are
        // used by one thread at a time: handed over to the main actor and back, never shared.
        // The task lets go of them before it signals, as `withoutActuallyEscaping` requires.
        nonisolated(unsafe) let handover = MainActorHandover(object: object, code: code, cast: cast)
        let done = DispatchSemaphore(value: 0)
        Task { @MainActor in
          handover.run()
          done.signal()
        }
        done.wait()
        return handover.conforms
      }
    }
    if !conforms { refused.insert(pair) }
  }

  /// What a pass hands to the main actor, and what it learns there.
  private final class MainActorHandover<Observer> {
    private var call: (object: AnyObject, code: (Observer) -> Void, cast: (AnyObject) -> Observer?)?
    private(set) var conforms = false

    init(object: AnyObject, code: @escaping (Observer) -> Void, cast: @escaping (AnyObject) -> Observer?) {
      call = (object, code, cast)
    }

    /// Casts and calls, then drops the closures.
    func run() {
      guard let (object, code, cast) = call else { return }
      call = nil
      if let observer = cast(object) {
        conforms = true
        code(observer)
      }
    }
  }

  /// Forgets what the retries learnt, for the tests.
  package static func forget() {
    refused.removeAll()
  }
}
