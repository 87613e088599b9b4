/// Marks an observer class whose calls must run on the main actor, on every runtime.
///
/// Adopt it on a `@MainActor` class that observes through protocols. It states on the class
/// what the runtime only knows on Apple's 26 releases and later: there a pass off the main
/// actor calls an observer whose conformance is isolated to the main actor on the main actor,
/// marked or not, because the runtime refuses the conformance to a cast off the main actor.
/// Runtimes before the 26 releases accept that cast anywhere, so an unmarked main-actor
/// observer would be called on the pass's thread; a marked one is called on the main actor
/// there too, in its turn, the pass waiting for it.
///
/// ```swift
/// @MainActor
/// final class ProgressView: DownloadObserver, MainActorObserver {
///   func progressChanged(to percent: Int) { bar.value = percent }
/// }
/// ```
///
/// The protocol refines `SendableMetatype`, so the conformance to it is never isolated and
/// a pass on any thread can ask for it. It has no requirements.
public protocol MainActorObserver: AnyObject, SendableMetatype {}
