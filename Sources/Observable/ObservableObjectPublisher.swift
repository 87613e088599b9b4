#if !canImport(Combine)
import ObservableKit

/// A stand-in for Combine's `ObservableObjectPublisher` on platforms without Combine, so that
/// SwiftUI-style code (`objectWillChange.send()`) compiles everywhere.
///
/// It is the type of ``ObservableClass/objectWillChange`` there, built on the core's
/// `SharedEvent<Void>`, so that it may be sent from the main actor while its owner lives
/// elsewhere:
///
/// ```swift
/// let token = model.objectWillChange.observe { print("will change") }
/// model.objectWillChange.send()   // prints "will change"
/// token.dispose()
/// ```
///
/// Threads, order and re-entrancy are those of a nonisolated `SharedEvent` handler: handlers
/// run synchronously on the thread that calls ``send()``, in subscription order, with no lock
/// held; a `send()` from inside a handler is delivered after the current pass.
public final class ObservableObjectPublisher: Sendable {
  private let event = SharedEvent<Void>()

  /// Creates a publisher with no handlers.
  public init() {}

  /// Calls every handler, in subscription order, on this thread.
  public func send() {
    event.notifyObservers()
  }

  /// Registers `handler` to be called by every later ``send()``.
  ///
  /// In a debug build inside ObservableKitTesting's `withLeakCheck`, the subscription is
  /// named by `fileID:line`, the caller's line (never a line of this module).
  ///
  /// - Returns: A disposable that ends the subscription. Dropping it does not end it; the
  ///   subscription lives as long as the publisher.
  public func observe(
    _ handler: @escaping @Sendable () -> Void, fileID: StaticString = #fileID, line: UInt = #line
  ) -> any Disposable {
    event.observeNonisolated({ handler() }, fileID: fileID, line: line)
  }
}
#endif
