// swift-tools-version: 6.1
// The benchmark suite of ObservableKit: a separate package, so that the root package stays
// free of dependencies. Run it with `bash Benchmarks/run.sh` from the repository root.
import PackageDescription

let package = Package(
  name: "ObservableKitBenchmarks",
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "ObservableKit", path: ".."),
    // ordo-one/package-benchmark, renamed ordo-one/benchmark; the old identifier is deprecated.
    .package(url: "https://github.com/ordo-one/benchmark.git", "1.38.0"..<"1.39.0", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", "0.14.0"..<"0.15.0"),
  ],
  targets: [
    // The common handler, the baselines, the compat subjects, scenario 10's models and
    // scenario 11's NotificationCenter handlers, shared by the suite and the instruction-count
    // tool. Outside Benchmarks/, which the plugin scans for benchmarks.
    .target(
      name: "BenchmarkSupport",
      dependencies: [
        .product(name: "ObservableKit", package: "ObservableKit"),
        .product(name: "Observable", package: "ObservableKit"),
      ],
      path: "Support"
    ),
    .executableTarget(
      name: "ObservableKitBenchmarks",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "ObservableKit", package: "ObservableKit"),
        .product(name: "Observable", package: "ObservableKit"),
        .product(name: "ObservableKitTesting", package: "ObservableKit"),
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/ObservableKitBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
    // Not a benchmark (the plugin runs only targets in Benchmarks/): the executable that
    // count-instructions.sh runs under callgrind.
    .executableTarget(
      name: "InstructionCounts",
      dependencies: [
        "BenchmarkSupport",
        .product(name: "ObservableKit", package: "ObservableKit"),
        .product(name: "Observable", package: "ObservableKit"),
        .product(name: "ObservableKitTesting", package: "ObservableKit"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "Tools/InstructionCounts"
    ),
  ]
)
