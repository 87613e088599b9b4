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
// cast on a probe whose conformance is isolated to the main actor.
//
// Runtimes that do not check isolated conformances (Apple's before the 26 releases) let the
// first cast succeed anywhere, so an unmarked main-actor observer is called on the pass's
// thread: the library cannot tell its class is bound to the main actor. An observer that
// adopts `MainActorObserver` says so, and there a pass off the main actor calls it on the main
// actor, as the check does on 26. `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1` (debug builds) models
// such a runtime on one that checks: marked observers take the same hop, an unmarked one
// whose cast fails off the main actor is not retried (the real old runtime would call it on
// the pass's thread; neither is the main actor), and a debug diagnostic names its type.

/// Whether a pass must not call `object` here although the cast found its conformance: on a
/// runtime that does not check isolated conformances, a `MainActorObserver` off the main
/// actor. Always false where the runtime checks (one load).
@usableFromInline
func mustCallOnMainActor(_ object: AnyObject) -> Bool {
  MainActorConformances.castsIgnoreIsolation && object is any MainActorObserver
    && !MainActorConformances.onMainActor
}

/// Calls `code` with `object` on the main actor if the failed cast to `Observer` was refused
/// only because the pass runs outside the main actor.
@usableFromInline
func callIfIsolatedToMainActor<Observer>(_ object: AnyObject, _ code: (Observer) -> Void) {
  MainActorConformances.call(object, code) { $0 as? Observer }
}

/// A protocol for the probe to conform to.
private protocol MainActorProbing: AnyObject {}

/// An object whose one conformance is isolated to the main actor: the runtime lets a cast
/// see it exactly where it lets a cast see any main-actor-isolated conformance.
@MainActor
private final class MainActorProbe: @MainActor MainActorProbing {
  nonisolated init() {}
}

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

  /// Whether the runtime running this process checks isolated conformances: Apple's 26
  /// releases and later, and Swift 6.2 and later elsewhere (the package's toolchain floor).
  package static let runtimeChecksIsolatedConformances: Bool = {
    #if canImport(Darwin)
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { return true }
    return false
    #else
    return true
    #endif
  }()

  /// True in debug builds run with `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1`, the switch that
  /// makes ObservableKit's deliveries take the path of Apple platforms before the 26 releases.
  package static let simulatesRuntimeBefore26: Bool = {
    #if DEBUG
    return ProcessInfo.processInfo.environment["OBSERVABLEKIT_SIMULATE_OS_BEFORE_26"] == "1"
    #else
    return false
    #endif
  }()

  /// Whether passes behave as on a runtime that lets a cast see a main-actor-isolated
  /// conformance anywhere: a runtime before the 26 releases, or the simulation of one.
  package static let castsIgnoreIsolation =
    simulatesRuntimeBefore26 || !runtimeChecksIsolatedConformances

  /// Whether the caller runs on the main actor: asked of the runtime where it checks isolated
  /// conformances (the probe), else of the thread and the main queue.
  package static var onMainActor: Bool {
    if runtimeChecksIsolatedConformances { return castsSeeMainActorConformances }
    return Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
  }

  /// Marks the main queue, so that a block running on it can tell, whatever its thread.
  private static let mainQueueKey: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
  }()

  /// The observer types the simulated old runtime has reported, so each is reported once.
  private static let reported = RefusedPairs()

  /// Calls `code` with `cast(object)` on the main actor, waiting for it, unless casts here
  /// see main-actor-isolated conformances already or the pair is known not to conform. `cast`
  /// is the pass's cast; the tests pass others.
  package static func call<Observer>(
    _ object: AnyObject, _ code: (Observer) -> Void, cast: (AnyObject) -> Observer?
  ) {
    let pair = Pair(observer: ObjectIdentifier(type(of: object)), protocolType: ObjectIdentifier(Observer.self))
    if castsIgnoreIsolation {
      // A runtime before 26 (or its simulation): only a marked observer goes to the main
      // actor; the pass itself decides, since the cast does not tell.
      guard object is any MainActorObserver else {
        if simulatesRuntimeBefore26 { reportUnmarked(object, pair, cast: cast) }
        return
      }
      guard !onMainActor else { return }
      _ = callOnMainActor(object, code, cast: cast)
      return
    }
    guard !castsSeeMainActorConformances else { return }
    if refused.contains(pair) { return }
    if !callOnMainActor(object, code, cast: cast) { refused.insert(pair) }
  }

  /// In a debug build simulating a runtime before 26: an unmarked observer whose cast the
  /// runtime refused off the main actor, and that conforms on the main actor, is a
  /// main-actor observer the old runtime would call on the pass's thread. Says so on
  /// standard error, once per observer type and protocol.
  private static func reportUnmarked<Observer>(_ object: AnyObject, _ pair: Pair, cast: (AnyObject) -> Observer?) {
    guard !castsSeeMainActorConformances, !reported.contains(pair) else { return }
    reported.insert(pair)
    let conforms = callOnMainActor(object, { (_: Observer) in }, cast: cast)
    guard conforms else { return }
    let message = "ObservableKit: a pass off the main actor met \(type(of: object)), whose conformance to "
      + "\(Observer.self) is isolated to the main actor. Before the 26 releases the runtime lets the "
      + "pass call it on its own thread, a data race; adopt MainActorObserver on the class to have "
      + "every runtime call it on the main actor. (OBSERVABLEKIT_SIMULATE_OS_BEFORE_26: it was not called.)\n"
    FileHandle.standardError.write(Data(message.utf8))
  }

  /// Casts `object` and calls `code` with it on the main actor, waiting for it; whether the
  /// cast found the conformance there.
  private static func callOnMainActor<Observer>(
    _ object: AnyObject, _ code: (Observer) -> Void, cast: (AnyObject) -> Observer?
  ) -> Bool {
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
    return conforms
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

  /// Whether the simulated old runtime has reported `observer` for `protocolType`, for the
  /// tests.
  package static func wasReported(_ observer: AnyObject.Type, for protocolType: Any.Type) -> Bool {
    reported.contains(Pair(observer: ObjectIdentifier(observer), protocolType: ObjectIdentifier(protocolType)))
  }

  /// Forgets what the retries learnt, for the tests.
  package static func forget() {
    refused.removeAll()
    reported.removeAll()
  }
}
