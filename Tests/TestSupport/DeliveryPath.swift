// Gated on Testing: TestSupport is a regular target, which a build of every target for a
// device (xcodebuild build) compiles without the testing frameworks' search paths; the
// test targets, which use these helpers, always have Testing.
#if canImport(Testing)
import Foundation
import Testing

/// Which path the library's asynchronous deliveries take in this process, worked out the way
/// the library does it, independently of its code: immediate tasks (SE-0472) from the 26
/// releases on, unless a debug build runs with `OBSERVABLEKIT_SIMULATE_OS_BEFORE_26=1`.
///
/// Tests of the shared family's isolation-inheriting handlers use it to pick which rule they
/// pin: "at once" holds only with immediate tasks; before them every call is enqueued, in order.
public enum DeliveryPath {
  /// True when the deliveries start immediate tasks (the 26 releases, not simulated away).
  public static let usesImmediateTasks: Bool = {
    let simulated = ProcessInfo.processInfo.environment["OBSERVABLEKIT_SIMULATE_OS_BEFORE_26"] == "1"
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
      return !simulated
    }
    return false
  }()

  /// The reason shown for a test that pins the rule of the other path.
  public static let immediateOnly: Comment =
    "shared isolation-inheriting handlers run at once only with immediate tasks (the 26 releases)"
  /// The reason shown for a test that pins the rule before the 26 releases.
  public static let before26Only: Comment = "pins the delivery rule before the 26 releases"
}
#endif
