// Shared pieces of the suite: naming, subscription and the check of the handlers' total.
// The handler, the baselines, the compat subjects and the seeded shuffle are in
// BenchmarkSupport (Support/), shared with the instruction-count tool.

import Benchmark
import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Naming

/// The things a scenario measures: ObservableKit, the baseline and a peer (OpenCombine, or
/// the API that scenarios 10 and 11 compare with).
enum Contender: String, CaseIterable {
  case observableKit = "ObservableKit"
  case baseline = "Baseline"
  case openCombine = "OpenCombine"
  /// Scenario 10's peer: a stored `Property` beside the `@Property` wrapper.
  case storedProperty = "StoredProperty"
  /// Scenario 11's peer: a private `NotificationCenter` beside `EventHub`.
  case notificationCenter = "NotificationCenter"
}

/// Registers one benchmark.
///
/// The name is `<scenario>_x<units>_<contender>`, with `_` for spaces. `units` is how many
/// units of the reported quantity (deliveries, cycles, pairs, disposals, entries, live
/// subscriptions) one iteration performs; `Benchmarks/format-results.py` divides by it, so
/// every figure in the table is per unit. Every benchmark records the same metrics.
func register(
  _ scenario: String,
  units: Int,
  _ contender: Contender,
  warmupIterations: Int = 3,
  maxDuration: Duration = .milliseconds(800),
  maxIterations: Int = 2_000,
  closure: @escaping (Benchmark) -> Void,
  teardown: (() -> Void)? = nil
) {
  // check-thresholds.sh sets BENCHMARK_COUNTS_ONLY: the counts it checks are the same in
  // every iteration, so fewer iterations are enough. Enough for the p90 it compares to
  // ignore a one-off allocation (a runtime cache filled on first use, say): 30 where the
  // benchmark allows that many.
  let countsOnly = getenv("BENCHMARK_COUNTS_ONLY") != nil
  let configuration = Benchmark.Configuration(
    metrics: suiteMetrics,
    // Raw units everywhere, so that the exported percentiles are exact integers.
    timeUnits: .nanoseconds,
    units: Dictionary(
      (suiteMetrics + checkedMetrics).map { ($0, BenchmarkUnits.count) },
      uniquingKeysWith: { first, _ in first }
    ),
    warmupIterations: warmupIterations,
    scalingFactor: .one,
    maxDuration: countsOnly ? .milliseconds(400) : maxDuration,
    maxIterations: countsOnly ? min(maxIterations, 30) : maxIterations
    // No custom tolerances: a threshold check compares with the strict default, so the
    // deterministic counts in Thresholds/ must match exactly (see check-thresholds.sh).
  )
  let wrappedTeardown: Benchmark.BenchmarkTeardownHook? = teardown.map { teardown in { teardown() } }
  // No spaces: package-benchmark writes threshold files with spaces turned into `_` but
  // looks them up by the plain name.
  Benchmark(
    String("\(scenario) x\(units) \(contender.rawValue)".map { $0 == " " ? "_" : $0 }),
    configuration: configuration,
    closure: closure,
    teardown: wrappedTeardown
  )
}

/// Wall clock for the ratios, plus allocation counts and the requested heap bytes still held
/// at the end of the measured region (for the memory scenario).
let suiteMetrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .memoryLeakedBytes]

/// The metrics `check-thresholds.sh` measures (with `--metric`) and compares exactly.
/// Listed here so that they are shown in raw units too.
let checkedMetrics: [BenchmarkMetric] = [.mallocCountTotal, .retainCount, .releaseCount]

/// State made on the first iteration and dropped by the benchmark's teardown, so that only
/// the benchmark that runs holds memory.
final class Lazy<Value> {
  private let make: () -> Value
  private var stored: Value?

  init(_ make: @escaping () -> Value) {
    self.make = make
  }

  var value: Value {
    if let stored { return stored }
    let made = make()
    stored = made
    return made
  }

  /// The value if it has been made, without making it.
  var existing: Value? { stored }

  func reset() {
    stored = nil
  }
}

// MARK: - Checking the handlers' work

/// Checks that the work was done and hands the total to the optimizer barrier.
@inline(__always)
func expect(_ sink: Sink, _ expected: Int) {
  precondition(sink.total == expected, "expected \(expected), got \(sink.total)")
  blackHole(sink.total)
}

/// The sum of 0..<count, as the handlers accumulate it.
func triangle(_ count: Int) -> Int {
  count * (count - 1) / 2
}
