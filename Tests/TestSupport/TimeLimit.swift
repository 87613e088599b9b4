// Gated on Testing: TestSupport is a regular target, which a build of every target for a
// device (xcodebuild build) compiles without the testing frameworks' search paths; the
// test targets, which use these helpers, always have Testing.
#if canImport(Testing)
import Testing

/// A suite's time limit, as a watchdog against a hang, where Swift Testing has one.
///
/// `.timeLimit(_:)` needs macOS 13, iOS 16, tvOS 16 and watchOS 9, above the package's floor,
/// and `@Suite` refuses a type marked `@available`; so a suite writes
/// `@Suite("…", timeLimitWhereAvailable(minutes: 1))`. On older systems the suite runs
/// without a limit.
public func timeLimitWhereAvailable(minutes: Int) -> any SuiteTrait {
  if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
    return TimeLimitTrait.timeLimit(.minutes(minutes))
  }
  return ConditionTrait.enabled(if: true)
}
#endif
