/// The synchronous forms of an `@isolated(any)` handler, for the isolations the library can
/// prove at run time: none, and the main actor.
///
/// Swift 6.3 cannot call an `@isolated(any)` function synchronously, not even where the
/// caller runs with its isolation: `f(v)` inside `MainActor.assumeIsolated` is refused with
/// "call to @isolated(any) let 'f' in a synchronous main actor-isolated context" (SE-0431
/// leaves a synchronous call to a future direction). What makes the call asynchronous is the
/// hop to the function's isolation, not its calling convention: each form is the handler
/// retyped as the plain function of its signature
/// (``IsolatedHandlerBox/retypedWithoutIsolation()``, which argues why it is called exactly
/// as the handler), called only where the handler's isolation is current:
/// - a handler whose `isolation` is nil is called by `NonisolatedDelivery`
///   (`IsolatedDelivery.route(isolation:_:through:)` chooses by that nil): the function runs
///   on any thread, and it is `@Sendable`, so calling it from the notifying thread is what its
///   type allows. Its calls still never overlap: the delivery calls it from one drain at a
///   time.
/// - ``mainActorCall(_:)`` is made only when `isolation` is the main actor, checked there by
///   identity in the same step, so no route can take a handler of another isolation.
///   `MainActorDelivery` and `MainActorSubscription` call the result only where main-actor code may
///   run now: right after `MainActorNow.isCurrent` held on the notifying thread, or in a
///   drain started by a main-actor job, which checks `isCurrent` again with a precondition
///   (`MainActorCalling.drainFromJob`); the rule they follow for the handlers of
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
enum IsolationRetyping<Value> {
  @usableFromInline typealias Isolated = @isolated(any) @Sendable (Value) -> Void

  /// `handler` in the form the delivery calls, if it is isolated to the main actor (checked
  /// here, by identity, in the same step); nil otherwise. One question to the runtime: each
  /// read of `MainActor.shared` costs a retain and a release.
  @inlinable
  static func mainActorCall(_ handler: @escaping Isolated) -> MainActorCall<Value>? {
    guard handler.isolation === MainActor.shared else { return nil }
    return MainActorCall(body: IsolatedBox(body: handler).retypedWithoutIsolation().body)
  }

  /// A handler of one value, and the same function without its isolation.
  @usableFromInline struct IsolatedBox: IsolatedHandlerBox {
    @usableFromInline typealias Plain = SendableBox
    @usableFromInline let body: Isolated
    @inlinable init(body: @escaping Isolated) { self.body = body }
  }
  @usableFromInline struct SendableBox { @usableFromInline let body: @Sendable (Value) -> Void }

  /// A `@MainActor` handler (`observe(on: MainActor.shared)`), and the same function without
  /// its isolation.
  @usableFromInline struct MainActorBox: IsolatedHandlerBox {
    @usableFromInline typealias Plain = PlainBox
    @usableFromInline let body: @MainActor (Value) -> Void
    @inlinable init(body: @escaping @MainActor (Value) -> Void) { self.body = body }
  }
  @usableFromInline struct PlainBox { @usableFromInline let body: (Value) -> Void }
}

/// A struct whose one stored property, `body`, is a handler whose isolation only its type
/// records (`@isolated(any)`, or a global actor's), paired with `Plain`: the struct whose one
/// stored property is the same function type without that isolation, and otherwise the same
/// (`@Sendable` stays). Each pair is declared beside the code that retypes it.
///
/// The retyping casts these boxes, not the functions: a function passed to a generic
/// parameter (as `unsafeBitCast`'s) is reabstracted, through a thunk per layer that each call
/// then runs through; a struct's function field keeps the abstraction its declaration gives
/// it, the same in both boxes of a pair, so the cast is a copy of the same two words.
@usableFromInline
protocol IsolatedHandlerBox {
  /// The box of the same function type without the isolation.
  associatedtype Plain
}

extension IsolatedHandlerBox {
  /// The handler this box holds, as the plain function of its signature: the one place the
  /// library retypes an isolated handler (the shared family's `@isolated(any)` handlers, in
  /// `IsolationRetyping`, `ActorCall`, `IsolatedOwnerCall` and `OwnerBlockRetyping`, and the
  /// `@MainActor` handlers of `observe(on: MainActor.shared)`, in `MainActorCall`).
  ///
  /// Why the result is called exactly as the handler would be, in the compiler's sources
  /// (swiftlang/swift):
  /// - Every thick function type, whatever its isolation, is the same two words, a function
  ///   pointer and a context: `TypeConverter::convertFunctionType` (lib/IRGen/GenFunc.cpp)
  ///   lowers each to the same function pair, and a call passes the context to the function
  ///   pointer in a parameter of its own after the formal ones (the order the file's opening
  ///   comment gives), with no parameter for the isolation. `@isolated(any)` is allowed only
  ///   on thick functions (docs/SIL/Types.md).
  /// - An `@isolated(any)` value keeps its isolation inside that context: it is made by
  ///   `partial_apply [isolated_any]` (docs/SIL/Types.md), and IRGen reads it back from a
  ///   fixed offset of the closure context, right after the heap object's header
  ///   (`emitExtractFunctionIsolation`, lib/IRGen/GenFunc.cpp). The retyped value has the
  ///   same context, so the function the pointer names finds its captures where it always
  ///   does.
  /// - A global actor's isolation is not in the lowered type at all: docs/SIL/Types.md says
  ///   actor isolation is "mostly simply erased from the SIL type system", `@isolated(any)`
  ///   being what SIL function types carry, so `@MainActor (Value) -> Void` and
  ///   `(Value) -> Void` lower to the same type.
  /// - SIL's test of whether `convert_function` may turn one function type into another
  ///   without a thunk, `SILFunctionType::isABICompatibleWith`
  ///   (lib/SIL/IR/SILFunctionType.cpp), compares the representation, the results, the
  ///   error, the parameters and escapability; it ignores the erased isolation.
  /// The cast is checked for size (`unsafeBitCast`) and, in debug builds, for holding one
  /// function. This is the compiler's lowering, not a promise of the language: the library
  /// is built from source by the compiler that builds its users' handlers, and
  /// `SharedDeliveryTests` exercises the retyped handlers on every delivery path.
  ///
  /// What the caller must guarantee: the result's type no longer says where it may run, so
  /// the compiler no longer keeps it there; the caller calls it only where the handler's
  /// isolation is current, checked at run time (argued at each caller):
  /// - nonisolated (a handler or an `IsolatedOwnerCall` whose `isolation` is nil, routed by
  ///   `IsolatedDelivery.route(isolation:_:through:)`): checked nil first; called from any thread, one call at a time;
  /// - the main actor (`IsolationRetyping.mainActorCall`, checked by identity; `MainActorCall`'s
  ///   `@MainActor` handlers; a handler routed by its `isolation`): called only
  ///   right after `MainActorNow.isCurrent` held on the calling thread, or from a main-actor
  ///   job's drain, which checks `isCurrent` again with a precondition;
  /// - another actor (`ActorCall`, which checks the handler's isolation with a precondition;
  ///   a `IsolatedOwnerCall` routed by its `isolation`): called only from `IsolatedDelivery`'s
  ///   drain, whose `isolated` parameter is that actor, and which checks that it runs there
  ///   with `preconditionIsolated` where the OS has it (from macOS 14, iOS 17, tvOS 17 and
  ///   watchOS 10 on, and on every other platform).
  @inlinable @inline(__always)
  func retypedWithoutIsolation() -> Plain {
    assert(
      MemoryLayout<Self>.size == MemoryLayout<() -> Void>.size,
      "an isolated handler's box holds one function"
    )
    return unsafeBitCast(self, to: Plain.self)
  }
}

/// A main-actor handler held in the form it is called in: a plain function, so that a
/// specialized drain calls it with no reabstraction thunk (a function typed by a generic
/// parameter, as the mailbox's `Handler`, is stored maximally abstracted, and converting it
/// back for each call allocates; `ObserverHandler` keeps the storage's closures the same way).
///
/// Soundness of the `@unchecked Sendable`: `body` is a `@MainActor` function retyped once, at
/// subscription (`IsolatedHandlerBox.retypedWithoutIsolation()`), or a handler checked there
/// to be isolated to the main actor (`IsolationRetyping.mainActorCall`, `IsolatedDelivery.route(isolation:_:through:)`), so
/// it is main-actor code, bound to the main actor.
/// `MainActorDelivery` calls it only where main-actor code may run now: right after
/// `MainActorNow.isCurrent` held on this thread, or from a main-actor job, and each drain
/// checks `isCurrent` again with a precondition, so a wrong path traps instead of racing.
/// No other code calls it, and nothing hands it out.
@usableFromInline
struct MainActorCall<Value>: @unchecked Sendable {
  @usableFromInline let body: (Value) -> Void

  @inlinable
  init(_ handler: @escaping @MainActor (Value) -> Void) {
    body = IsolationRetyping.MainActorBox(body: handler).retypedWithoutIsolation().body
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
