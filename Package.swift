// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ObservableKit",
  // The oldest deployment targets Xcode 26 supports (README, Platforms). APIs newer than these
  // are fenced with @available or #available: scripts/check-availability.sh checks.
  platforms: [.macOS(.v11), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
  products: [
    .library(name: "ObservableKit", targets: ["ObservableKit"]),
    .library(name: "Observable", targets: ["Observable"]),
    // For test targets: ManualClock, record() and the leak check.
    .library(name: "ObservableKitTesting", targets: ["ObservableKitTesting"]),
  ],
  targets: [
    // The lock, the atomic epoch and the thread-local delivery frame, in C so that they
    // work on every OS version the package supports (Synchronization needs macOS 15, iOS 18).
    .target(name: "ObservableKitShims"),
    .target(
      name: "ObservableKit",
      dependencies: ["ObservableKitShims"],
      // Debug builds (the tests) compile the schedule points the test suite's schedule
      // explorer drives; release builds compile them to nothing.
      swiftSettings: [.define("OBSERVABLEKIT_SCHEDULE_POINTS", .when(configuration: .debug))]
    ),
    .target(name: "Observable", dependencies: ["ObservableKit"]),
    // The testing kit: imports neither Testing nor XCTest, so it serves both.
    .target(name: "ObservableKitTesting", dependencies: ["ObservableKit"]),
    // Helpers the test targets share: locked values, logs, thread races with a watchdog,
    // a lifetime tracker, a seeded generator, and the schedule explorer. A regular target at
    // the package's floors, which are at or above Swift Testing's (macOS 10.15, iOS 13,
    // tvOS 13, watchOS 6, visionOS 1); its files that use Testing are gated on
    // canImport(Testing), for a build of every target without the testing search paths.
    .target(name: "TestSupport", dependencies: ["ObservableKit"], path: "Tests/TestSupport"),
    // The contract tests, the stress matrix and the model-based test share confined types
    // across threads on purpose, as Swift 5-mode code may: Swift 6 rightly refuses that, so
    // this target builds in Swift 5 mode, and marks each deliberate share `nonisolated(unsafe)`.
    .testTarget(
      name: "ObservableKitTests",
      dependencies: ["ObservableKit", "TestSupport"],
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // Swift 6 mode: the isolation API as users write it, both families.
    .testTarget(name: "IsolationTests", dependencies: ["ObservableKit", "TestSupport"]),
    .testTarget(name: "ObservableTests", dependencies: ["Observable", "TestSupport"]),
    // Swift 6 mode: the time operators driven by ManualClock, the recorders, the leak check.
    .testTarget(name: "ObservableKitTestingTests", dependencies: ["ObservableKit", "ObservableKitTesting", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
