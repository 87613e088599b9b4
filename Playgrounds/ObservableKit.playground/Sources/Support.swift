import Foundation

// Helpers shared by the pages. Xcode compiles this folder into a module of its own that
// every page imports implicitly, so everything a page uses here must be `public`.
// `scripts/playground.sh` builds it the same way.

/// Prints `title`, runs one example, and ends it with a blank line.
///
/// Keeping each example in its own closure keeps its variables local, so that what an
/// example releases at its end (a bag, an owner, a source) is released before the next one.
public func example(_ title: String, _ body: () throws -> Void) rethrows {
  print("--- \(title)")
  try body()
  print()
}

/// Runs `body` in a task and blocks the calling thread until the task has finished, so that
/// a page prints in order. `body` must not need the main actor: the main thread is waiting.
public func runAsync(_ body: @escaping @Sendable () async -> Void) {
  let finished = DispatchSemaphore(value: 0)
  Task.detached {
    await body()
    finished.signal()
  }
  finished.wait()
}

/// Runs the main run loop, and with it the main queue, until `isDone` returns true.
///
/// An app runs the main queue all the time; a playground page or a command-line program
/// runs it only when asked to. Call this on the main thread.
public func runMainQueue(until isDone: () -> Bool) {
  while !isDone() {
    _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01))
  }
}

private let queueNameKey = DispatchSpecificKey<String>()

/// A serial queue that knows its own name; see ``currentQueueName``.
public func makeQueue(named name: String) -> DispatchQueue {
  let queue = DispatchQueue(label: name)
  queue.setSpecific(key: queueNameKey, value: name)
  return queue
}

/// The name of the queue made by ``makeQueue(named:)`` that is running the caller, if any.
public var currentQueueName: String? {
  DispatchQueue.getSpecific(key: queueNameKey)
}
