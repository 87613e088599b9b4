// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "ObservableKit",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [
    .library(name: "ObservableKit", targets: ["ObservableKit"]),
    .library(name: "Observable", targets: ["Observable"]),
    // For test targets: ManualClock, record() and the leak check.
    .library(name: "ObservableKitTesting", targets: ["ObservableKitTesting"]),
  ],
  targets: [
    // The lock, the atomic epoch and the thread-local delivery frame, in C so that they
    // work on every OS version the package supports (Synchronization needs macOS 15).
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
    // a lifetime tracker, a seeded generator, and the schedule explorer.
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
