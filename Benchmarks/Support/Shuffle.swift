// Seeded shuffle: the random disposal order of scenario 4.

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
public func shuffledIndices(_ count: Int) -> [Int] {
  var generator = SplitMix64(seed: 0x0B5E_4AB1_E000 &+ UInt64(count))
  var indices = Array(0..<count)
  indices.shuffle(using: &generator)
  return indices
}
