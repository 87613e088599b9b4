/// Where subscriptions were made, for ObservableKitTesting's leak check: a debug-only hook,
/// read once per subscription by the entry points that take a call site, never on notify.
/// In a release build the entry points do not call it (each call is under `#if DEBUG`).
@usableFromInline
package enum SubscriptionSites {
  #if DEBUG
  /// Called with each subscription made, in this task, by an entry point that takes a site.
  @TaskLocal package static var log: (@Sendable (any Disposable, StaticString, UInt) -> Void)?
  #endif

  /// Reports `subscription`, made at `fileID:line`, to the task's log, if one is bound.
  @usableFromInline
  package static func made(_ subscription: any Disposable, _ fileID: StaticString, _ line: UInt) {
    #if DEBUG
    // Only the user's calls are reported: the library's own links (an operator observing
    // its source, a recorder's subscription, the compatibility layer's) live and die with
    // the subscription the user holds, and a line inside the library names nothing the
    // user wrote. The entry points of the other modules pass their caller's site down, so
    // this filter is a backstop for a call that forgot to.
    guard let log, !isLibraryFile(fileID) else { return }
    log(subscription, fileID, line)
    #endif
  }

  /// `subscription`, reported as made at `fileID:line` in a debug build (see
  /// ``made(_:_:_:)``): what every entry point that takes a call site returns.
  @inlinable
  package static func named(_ subscription: any Disposable, _ fileID: StaticString, _ line: UInt) -> any Disposable {
    #if DEBUG
    made(subscription, fileID, line)
    #endif
    return subscription
  }

  /// Whether `fileID` names a file of the package's libraries (`Module/File.swift`).
  package static func isLibraryFile(_ fileID: StaticString) -> Bool {
    let path = fileID.description
    guard let slash = path.firstIndex(of: "/") else { return false }
    switch path[..<slash] {
    case "ObservableKit", "ObservableKitTesting", "Observable": return true
    default: return false
    }
  }
}
