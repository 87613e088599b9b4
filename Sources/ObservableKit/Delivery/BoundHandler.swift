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
/// - ``nonisolatedCall(_:)`` is taken only when `isolation` is nil: the function runs on any
///   thread, and it is `@Sendable`, so calling it from the notifying thread is what its type
///   allows. Its calls still never overlap: the delivery calls it from one drain at a time.
/// - ``mainActorCall(_:)`` is made only when `isolation` is the main actor, checked there by
///   identity in the same step, so no route can take a handler of another isolation.
///   `MainActorDelivery` and `MainActorEntry` call the result only where main-actor code may
///   run now: right after `MainActorNow.isCurrent` held on the notifying thread, or in a
///   drain started by a main-actor job, which checks `isCurrent` again with a precondition
///   (see `MainActorCall`); the rule they follow for the handlers of
///   `observe(on: MainActor.shared)`.
/// - A function isolated to any other actor is converted by `ActorCall` (argued there): it is
///   called only from the drain of `IsolatedDelivery`, a synchronous function isolated to
///   that actor, so the compiler runs it there.
///
/// Nothing of this escapes to user code: every form is internal, and the user's handler
/// type stays `@isolated(any) @Sendable`, so a closure that would race still fails to compile.
/// `SharedDeliveryTests` pins the conversion (captures, generic and large values, method
/// references) on every delivery path.
@usableFromInline
enum BoundHandler<Value> {
  @usableFromInline typealias Isolated = @isolated(any) @Sendable (Value) -> Void

  /// `handler`, known to be nonisolated, in the form the delivery calls.
  @inlinable
  static func nonisolatedCall(_ handler: @escaping Isolated) -> SendableCall<Value> {
    precondition(handler.isolation == nil, "a handler isolated to an actor called as nonisolated")
    return SendableCall(body: unsafeBitCast(IsolatedBox(body: handler), to: SendableBox.self).body)
  }

  /// `handler` in the form the delivery calls, if it is isolated to the main actor (checked
  /// here, by identity, in the same step); nil otherwise. One question to the runtime: each
  /// read of `MainActor.shared` costs a retain and a release.
  @inlinable
  static func mainActorCall(_ handler: @escaping Isolated) -> MainActorCall<Value>? {
    guard handler.isolation === MainActor.shared else { return nil }
    return MainActorCall(body: unsafeBitCast(IsolatedBox(body: handler), to: PlainBox.self).body)
  }

  // The conversions above cast these boxes, not the functions: a function passed to a
  // generic parameter (as `unsafeBitCast`'s) is reabstracted, through a thunk per layer that
  // each call then runs through; a struct's function field keeps one abstraction, so the cast
  // is a copy of the same two words.
  @usableFromInline struct IsolatedBox { @usableFromInline let body: Isolated
    @inlinable init(body: @escaping Isolated) { self.body = body } }
  @usableFromInline struct SendableBox { @usableFromInline let body: @Sendable (Value) -> Void }
  @usableFromInline struct PlainBox { @usableFromInline let body: (Value) -> Void }

}

/// A main-actor handler held in the form it is called in: a plain function, so that a
/// specialized drain calls it with no reabstraction thunk (a function typed by a generic
/// parameter, as the mailbox's `Handler`, is stored maximally abstracted, and converting it
/// back for each call allocates; `ObserverHandler` keeps the storage's closures the same way).
///
/// Soundness of the `@unchecked Sendable`: `body` is a `@MainActor` function retyped once, at
/// subscription (`MainActorNow.retype`), so it is main-actor code, bound to the main actor.
/// `MainActorDelivery` calls it only where main-actor code may run now: right after
/// `MainActorNow.isCurrent` held on this thread, or from a main-actor job, and each drain
/// checks `isCurrent` again with a precondition, so a wrong path traps instead of racing.
/// No other code calls it, and nothing hands it out.
@usableFromInline
struct MainActorCall<Value>: @unchecked Sendable {
  @usableFromInline let body: (Value) -> Void

  @inlinable
  init(_ handler: @escaping @MainActor (Value) -> Void) {
    body = MainActorNow.retype(handler)
  }

  @inlinable
  init(body: @escaping (Value) -> Void) {
    self.body = body
  }
}

/// A nonisolated `@Sendable` handler held in the form it is called in; see `MainActorCall`.
@usableFromInline
struct SendableCall<Value>: Sendable {
  @usableFromInline let body: @Sendable (Value) -> Void

  @inlinable
  init(_ handler: @escaping @Sendable (Value) -> Void) {
    body = handler
  }

  @inlinable
  init(body: @escaping @Sendable (Value) -> Void) {
    self.body = body
  }
}
