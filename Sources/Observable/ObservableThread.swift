import Foundation

/// A base class for a thread that others observe: override ``main()``, call ``start()``, and
/// notify observers from the thread with `withObservers`.
///
/// ```swift
/// protocol RandomNumberObserver: AnyObject {
///   func onRandomNumber(_ randomNumber: Int)
/// }
///
/// class RandomNumberObservableThread: ObservableThread {
///   override init() {
///     super.init()
///     start()
///   }
///
///   override func main() {
///     while isExecuting {
///       let randomNumber = Int.random(in: -9000..<9001)
///       withObservers { (observer: RandomNumberObserver) in
///         observer.onRandomNumber(randomNumber)
///       }
///       Self.sleep(forTimeInterval: 60)
///     }
///   }
/// }
/// ```
///
/// It is not a `Foundation.Thread`: that class cannot be subclassed with the Linux toolchain
/// ("cannot inherit from class 'Thread'"). It offers the members that matter for this
/// pattern, backed by a real thread that ``start()`` creates.
///
/// ## Threads and order
/// - Observers are called synchronously by `withObservers`, so the passes that ``main()``
///   makes call them **on this thread**, in subscription order. Observers may be added and
///   removed from any thread meanwhile, with the guarantees of ``ObservableThreadSafeClass``.
/// - State that your subclass shares between ``main()`` and other threads is yours to
///   protect.
///
/// ## Life cycle
/// - ``start()`` runs ``main()`` once on a new thread. Starting again does nothing (where
///   `Foundation.Thread` raises an exception). A thread cancelled before it started becomes
///   finished when ``start()`` is called, without running ``main()``.
/// - ``cancel()`` asks ``main()`` to stop: ``isCancelled`` becomes true, ``isExecuting``
///   becomes false (so `while isExecuting` loops end), and a ``sleep(forTimeInterval:)`` in
///   progress on the thread returns early. ``isFinished`` becomes true once ``main()`` has
///   returned; ``waitUntilFinished()`` blocks until then.
/// - The running thread keeps the object alive until ``main()`` returns.
open class ObservableThread: ObservableThreadSafeClass {
  private let lifecycle = ThreadLifecycle()

  /// Creates a thread that has not started.
  public override init() {
    super.init()
  }

  /// The body of the thread. Override it; the default does nothing.
  ///
  /// Runs once, on the thread that ``start()`` creates. Loop on ``isExecuting`` (or on
  /// `!isCancelled`) to stop when the thread is cancelled. You need not call `super`.
  open func main() {}

  /// Creates the thread and runs ``main()`` on it; returns at once.
  ///
  /// ``isExecuting`` is true when this returns. Calling it again, or after ``cancel()``, does
  /// nothing (a cancelled thread that was never started becomes finished instead). Safe from
  /// any thread. Overrides must call `super.start()`.
  open func start() {
    guard lifecycle.claimStart() else { return }
    // The new thread uses this object; its own state is locked, the subclass's is the
    // subclass's to protect (see the class documentation).
    nonisolated(unsafe) let observable = self
    let thread = Thread { observable.lifecycle.run { observable.main() } }
    thread.name = String(describing: type(of: self))
    thread.start()
  }

  /// Asks the thread to stop; ``main()`` decides when.
  ///
  /// Sets ``isCancelled``, clears ``isExecuting`` and wakes a ``sleep(forTimeInterval:)`` in
  /// progress on the thread. Idempotent and safe from any thread, including the thread
  /// itself. Before ``start()``, it makes ``start()`` finish the thread without running
  /// ``main()``. Overrides must call `super.cancel()`.
  open func cancel() {
    lifecycle.cancel()
  }

  /// Whether the thread has started and is neither cancelled nor finished.
  ///
  /// Unlike `Foundation.Thread`, this turns false as soon as ``cancel()`` is called, so that
  /// `while isExecuting { … }` loops end; ``isFinished`` tells when ``main()`` has returned.
  public var isExecuting: Bool { lifecycle.isExecuting }

  /// Whether ``cancel()`` has been called.
  public var isCancelled: Bool { lifecycle.isCancelled }

  /// Whether ``main()`` has returned, or the thread was cancelled before it started and
  /// ``start()`` was called.
  public var isFinished: Bool { lifecycle.isFinished }

  /// Blocks the calling thread until ``main()`` has returned.
  ///
  /// Returns at once if the thread has not started, or if called from the thread itself
  /// (which would otherwise wait forever).
  public func waitUntilFinished() {
    lifecycle.waitUntilFinished()
  }

  /// Blocks the calling thread for `interval` seconds.
  ///
  /// Called from the thread of an ``ObservableThread`` (usually from its ``main()``), it
  /// returns early when that thread is cancelled, so a long sleep does not delay the end of
  /// the loop. From any other thread it is `Thread.sleep(forTimeInterval:)`.
  public class func sleep(forTimeInterval interval: TimeInterval) {
    guard interval > 0 else { return }
    if let lifecycle = ThreadLifecycle.current {
      lifecycle.sleep(until: Date(timeIntervalSinceNow: interval))
    } else {
      Thread.sleep(forTimeInterval: interval)
    }
  }
}
