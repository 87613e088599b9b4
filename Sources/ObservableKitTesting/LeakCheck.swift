import ObservableKit

/// A scope that lists what a test made and checks, at its end, that all of it has gone:
/// objects released, subscriptions disposed, each named with the `fileID:line` that made it.
///
/// ```swift
/// @MainActor @Test func closingTheScreenReleasesItsModel() async throws {
///   try await withLeakCheck { leaks in
///     let model = SearchModel(clock: ManualClock())
///     leaks.track(model)
///     let results = model.results.record()    // tracked: made inside the scope
///     model.query.value = "swift"
///     _ = results
///   }
/// }
/// ```
///
/// A failing check throws ``LeakCheckFailure``, whose description lists each survivor and
/// where it was tracked, such as `SearchModel at AppTests/SearchTests.swift:12`.
///
/// Inside ``withLeakCheck(fileID:line:isolation:_:)`` the check is ``current`` for the task,
/// and every `record()` registers its subscription with it, with the line that called
/// `record()`. In a debug build, so does every subscription made by a plain spelling
/// (`observe`, `observeChanges`, `observeNonisolated`, `observeChangesNonisolated`) of
/// `ObservableEvent`, `Property`, `SharedEvent`, `SharedProperty`, their read-only views and
/// operator chains, `EventHub` and `SharedEventHub`, named `subscription at File.swift:line`,
/// the caller's line, never one inside the library. Owner-bound forms, queue and main-actor
/// delivery, time operators and generic code are not named (see the Testing view models
/// article); track those with `track(_:_:fileID:line:)`.
public final class LeakCheck: Sendable {
  /// One thing the check found alive.
  public struct Survivor: Sendable, CustomStringConvertible {
    /// What it is: the name given to `track`, or the object's type.
    public let name: String
    /// The `fileID:line` where it was tracked.
    public let site: String

    /// `name at site`.
    public var description: String { "\(name) at \(site)" }
  }

  private struct Entry: Sendable {
    let name: String
    let site: String
    let isAlive: @Sendable () -> Bool
  }

  /// The check of the enclosing ``withLeakCheck(fileID:line:isolation:_:)``, if any.
  @TaskLocal public static var current: LeakCheck?

  private let entries = Locked<[Entry]>([])

  /// An empty check.
  public init() {}

  /// Tracks `object`, held weakly: it survives while it is not deallocated.
  public func track(_ object: AnyObject, _ name: String? = nil, fileID: String = #fileID, line: Int = #line) {
    let reference = WeakReference(object)
    let name = name ?? String(describing: type(of: object))
    add(Entry(name: name, site: "\(fileID):\(line)", isAlive: { reference.object != nil }))
  }

  /// Tracks a subscription: it survives while it is not disposed.
  public func track(_ subscription: any Disposable, _ name: String = "subscription", fileID: String = #fileID, line: Int = #line) {
    track(subscription, name, site: "\(fileID):\(line)")
  }

  @usableFromInline
  func track(_ subscription: any Disposable, _ name: String, site: String) {
    add(Entry(name: name, site: site, isAlive: { !subscription.isDisposed }))
  }

  private func add(_ entry: Entry) {
    entries.withLock { $0.append(entry) }
  }

  /// What is still alive, in the order it was tracked.
  public var survivors: [Survivor] {
    entries.withLock { $0 }.filter { $0.isAlive() }.map { Survivor(name: $0.name, site: $0.site) }
  }

  /// Throws ``LeakCheckFailure`` naming the survivors, if any.
  public func check(fileID: String = #fileID, line: Int = #line) throws {
    let survivors = survivors
    if !survivors.isEmpty { throw LeakCheckFailure(survivors: survivors, site: "\(fileID):\(line)") }
  }
}

/// Runs `body` with a fresh ``LeakCheck`` as ``LeakCheck/current``, then checks it: throws
/// ``LeakCheckFailure`` naming what `body` tracked (and every recorder it made) that is
/// still alive once `body` has returned and released its locals.
public func withLeakCheck<Result>(
  fileID: String = #fileID,
  line: Int = #line,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (LeakCheck) async throws -> Result
) async throws -> Result {
  let check = LeakCheck()
  let result = try await LeakCheck.$current.withValue(check) {
    #if DEBUG
    // Subscriptions made by the site-taking entry points are tracked with their call site.
    try await SubscriptionSites.$log.withValue({ subscription, fileID, line in
      check.track(subscription, "subscription", site: "\(fileID):\(line)")
    }) {
      try await body(check)
    }
    #else
    try await body(check)
    #endif
  }
  try check.check(fileID: fileID, line: line)
  return result
}

/// The survivors of a leak check, each with the line that made it.
public struct LeakCheckFailure: Error, CustomStringConvertible {
  /// What was still alive.
  public let survivors: [LeakCheck.Survivor]
  /// The `fileID:line` of the check.
  public let site: String

  /// A sentence listing the survivors.
  public var description: String {
    "\(site): \(survivors.count) still alive: " + survivors.map(\.description).joined(separator: "; ")
  }
}
