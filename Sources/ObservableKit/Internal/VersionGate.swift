import ObservableKitShims

/// The highest property version a subscriber has been called with.
///
/// A call for version `v` begins only if it raises the gate to `v`, so a subscriber never
/// begins a call with an older value after a newer one, whichever threads are setting.
struct VersionGate: @unchecked Sendable {
  // The single word is only touched through the C atomics.
  private let buffer: ManagedBuffer<Void, UInt64>

  init() {
    buffer = ManagedBuffer.create(minimumCapacity: 1) { _ in () }
    buffer.withUnsafeMutablePointerToElements { $0.initialize(to: 0) }
  }

  /// Returns true if `version` is newer than every version opened before.
  @inline(__always)
  func open(_ version: UInt64) -> Bool {
    buffer.withUnsafeMutablePointerToElements { okit_atomic_raise($0, version) }
  }
}
