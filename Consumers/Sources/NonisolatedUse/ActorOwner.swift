import ObservableKit

// A nonisolated service actor owns its subscriptions: a synchronous handler for the count,
// an async one, one call at a time, for the work each value starts.

actor UploadQueue {
  private(set) var queued = 0
  private(set) var uploaded: [String] = []
  private var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?

  init(files: SharedEvent<String>) {
    files.observe(with: self) { queue, _ in
      queue.queued += 1
      queue.resumeWaiter()
    }
    files.observe(with: self, policy: .serial) { queue, name async in
      await Task.yield()  // the upload's awaits; the actor's state is its own between them
      queue.uploaded.append(name)
      queue.resumeWaiter()
    }
  }

  /// Returns once `count` files were queued and uploaded. (The two subscriptions are two
  /// queues into the actor: their calls may interleave in any order.)
  func waitForUploads(_ count: Int) async {
    if queued >= count && uploaded.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }

  private func resumeWaiter() {
    guard let waiter, queued >= waiter.count, uploaded.count >= waiter.count else { return }
    self.waiter = nil
    waiter.continuation.resume()
  }
}

func actorOwnsUploads() async {
  let files = SharedEvent<String>()
  let queue = UploadQueue(files: files)
  for name in ["a.txt", "b.txt", "c.txt"] { files.notifyObservers(name) }
  await queue.waitForUploads(3)
  print("upload queue: queued \(await queue.queued), uploaded \(await queue.uploaded)")
}
