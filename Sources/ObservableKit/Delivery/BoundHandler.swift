/// The synchronous forms of an `@isolated(any)` handler, for the isolations the library can
/// prove at run time: none, and the main actor.
///
/// Swift 6.3 cannot call an `@isolated(any)` function synchronously, not even where the
/// caller runs with its isolation: `f(v)` inside `MainActor.assumeIsolated` is refused with
/// "call to @isolated(any) let 'f' in a synchronous main actor-isolated context" (SE-0431
/// leaves a synchronous call to a future direction). What makes the call asynchronous is the
/// hop to the function's isolation, not its calling convention: an `@isolated(any)` function
/// value is a plain thick function (function pointer and context, the size `unsafeBitCast`
/// checks) whose isolation is read from the value itself, and it is called as any function of
/// its signature once the hop is made. That representation is part of the stable ABI on
/// Apple platforms (the standard library's `Task` initializers take `@isolated(any)`
/// functions), so it cannot change under a shipped app.
///
/// Soundness argument, for each form:
/// - ``nonisolated(_:)`` is taken only when `isolation` is nil: the function runs on any
///   thread, and it is `@Sendable`, so calling it from the notifying thread is what its type
///   allows. Its calls still never overlap: the delivery calls it from one drain at a time.
/// - ``mainActor(_:)`` is taken only when `isolation` is the main actor, checked here by
///   identity (a precondition, so a wrong route traps instead of racing). The result is typed
///   `@MainActor`, so from then on the compiler checks every call: the deliveries call it only
///   from main-actor code, entered either through a main-actor job (a task or a main-queue
///   block) or through `MainActorNow.run` right after `MainActorNow.isCurrent` held, the rule
///   `MainActorDelivery` already follows for the handlers of `observe(on: MainActor.shared)`.
/// - A function isolated to any other actor is not converted: its calls are awaited from a
///   drain that runs on that actor (`IsolatedDelivery`), which then starts them without a hop.
///
/// Nothing of this escapes to user code: both forms are internal, and the user's handler
/// type stays `@isolated(any) @Sendable`, so a closure that would race still fails to compile.
/// `BoundHandlerTests` pins the conversion (captures, generic and large values, method
/// references, the isolation) on every delivery path.
enum BoundHandler<Value> {
  typealias Isolated = @isolated(any) @Sendable (Value) -> Void

  /// `handler`, known to be nonisolated, as the plain function it is.
  static func nonisolated(_ handler: @escaping Isolated) -> @Sendable (Value) -> Void {
    precondition(handler.isolation == nil, "a handler isolated to an actor called as nonisolated")
    return unsafeBitCast(handler, to: (@Sendable (Value) -> Void).self)
  }

  /// `handler`, known to be isolated to the main actor, as the `@MainActor` function it is.
  static func mainActor(_ handler: @escaping Isolated) -> @MainActor @Sendable (Value) -> Void {
    precondition(handler.isolation === MainActor.shared, "a handler not isolated to the main actor called as main-actor code")
    return unsafeBitCast(handler, to: (@MainActor @Sendable (Value) -> Void).self)
  }

  /// Whether `handler` is isolated to the main actor.
  static func isMainActor(_ handler: Isolated) -> Bool {
    handler.isolation === MainActor.shared
  }
}
