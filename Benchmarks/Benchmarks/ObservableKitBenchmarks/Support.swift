// Shared pieces of the suite: naming, the common handler, the baseline and a seeded shuffle.

import Benchmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Naming

/// The three things every scenario measures.
enum Contender: String, CaseIterable {
  case observableKit = "ObservableKit"
  case baseline = "Baseline"
  case openCombine = "OpenCombine"
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

  func reset() {
    stored = nil
  }
}

// MARK: - The common handler

/// Where every handler adds the value it receives. Each handler captures a `Sink`, so each
/// handler closure has a heap context, as a real handler that captures state does.
///
/// The total lives behind a pointer, so the handler's work is one load, one add and one store
/// with no exclusivity check. The contended scenario's handlers race on it on purpose (its
/// total is not checked); the other scenarios that deliver check the exact total.
final class Sink: @unchecked Sendable {
  let slot: UnsafeMutablePointer<Int>

  init() {
    // A cache line of its own.
    slot = .allocate(capacity: 8)
    slot.initialize(repeating: 0, count: 8)
  }

  deinit {
    slot.deallocate()
  }

  var total: Int {
    get { slot.pointee }
    set { slot.pointee = newValue }
  }
}

/// The handler every contender runs. Not inlined, so that each call makes a fresh closure
/// context, the same way for everyone.
@inline(never)
func makeHandler(_ sink: Sink) -> @Sendable (Int) -> Void {
  { value in sink.slot.pointee &+= value }
}

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

// MARK: - The baseline

/// A pthread mutex at a fixed heap address: the same lock ObservableKit uses on Linux
/// (`pthread_mutex_lock` on a default mutex).
struct PthreadLock: @unchecked Sendable {
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  func destroy() {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inline(__always)
  func withLock<R>(_ body: () throws -> R) rethrows -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// The practical limit for a thread-safe event: a `ContiguousArray` of closures behind a
/// pthread mutex, snapshotted under the lock and called outside it. No tokens: `add`
/// returns a plain id, and `remove` is `firstIndex` + `remove(at:)` on a parallel id array.
/// No re-entrancy handling and no guarantee that a handler removed during a pass in progress
/// is not called by it.
final class BaselineEvent<Value>: @unchecked Sendable {
  typealias Handler = @Sendable (Value) -> Void

  private let lock = PthreadLock()
  private var handlers: ContiguousArray<Handler> = []
  private var ids: ContiguousArray<UInt64> = []
  private var nextID: UInt64 = 0

  deinit {
    lock.destroy()
  }

  func add(_ handler: @escaping Handler) -> UInt64 {
    lock.withLock {
      let id = nextID
      nextID += 1
      ids.append(id)
      handlers.append(handler)
      return id
    }
  }

  /// The removed handler is released under the lock: the simplest code, and the cheapest
  /// (handing it out would convert the stored closure back from its generic abstraction,
  /// which allocates a thunk).
  func remove(_ id: UInt64) {
    lock.withLock {
      guard let index = ids.firstIndex(of: id) else { return }
      ids.remove(at: index)
      handlers.remove(at: index)
    }
  }

  func notify(_ value: Value) {
    let snapshot = lock.withLock { handlers }
    for handler in snapshot {
      handler(value)
    }
  }
}

/// The baseline of a property: the same locked array, plus a value stored under the lock.
final class BaselineProperty<Value>: @unchecked Sendable {
  typealias Handler = @Sendable (Value) -> Void

  private let lock = PthreadLock()
  private var handlers: ContiguousArray<Handler> = []
  private var stored: Value

  init(_ value: Value) {
    stored = value
  }

  deinit {
    lock.destroy()
  }

  func add(_ handler: @escaping Handler) {
    lock.withLock { handlers.append(handler) }
  }

  var value: Value {
    get { lock.withLock { stored } }
    set {
      let snapshot = lock.withLock {
        stored = newValue
        return handlers
      }
      for handler in snapshot {
        handler(newValue)
      }
    }
  }
}

// MARK: - Seeded shuffle

/// SplitMix64: a fixed seed gives every run, and every contender, the same order.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// A random permutation of 0..<count, the same on every run.
func shuffledIndices(_ count: Int) -> [Int] {
  var generator = SplitMix64(seed: 0x0B5E_4AB1_E000 &+ UInt64(count))
  var indices = Array(0..<count)
  indices.shuffle(using: &generator)
  return indices
}
