// swift-tools-version: 6.2
// Code written the way users of ObservableKit write it, built in Swift 6 mode with warnings
// as errors and run by scripts/check-consumers.sh, which compares what each program prints
// with Expected/<Target>.txt.
import PackageDescription

let observableKit: Target.Dependency = .product(name: "ObservableKit", package: "ObservableKit")
// The Flowduino-compatible module, for the protocol observers of the view-model targets.
let observable: Target.Dependency = .product(name: "Observable", package: "ObservableKit")

let package = Package(
  name: "Consumers",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  dependencies: [.package(name: "ObservableKit", path: "..")],
  targets: [
    // Plain nonisolated code: confined events and properties, called synchronously.
    .executableTarget(name: "NonisolatedUse", dependencies: [observableKit]),
    // @MainActor view models.
    .executableTarget(name: "MainActorUse", dependencies: [observableKit, observable]),
    // An app's shape: synchronous top-level code on the main thread, then the main run loop.
    .executableTarget(name: "AppRunLoopUse", dependencies: [observableKit]),
    // Acceptance checks of main-actor delivery in an app's shape (dispatchMain), each
    // printing ok or FAIL; exits with status 1 on a failure.
    .executableTarget(name: "MainThreadChecks", dependencies: [observableKit]),
    // The same view models without annotations, under the settings of a new app target.
    .executableTarget(
      name: "AppDefaultsUse",
      dependencies: [observableKit, observable],
      swiftSettings: [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]
    ),
  ]
)
