import Foundation
import Observable
import Testing
import TestSupport

/// A thread whose `main()` the test steers with semaphores.
private final class SteeredThread: ObservableThread, @unchecked Sendable {
  let entered = DispatchSemaphore(value: 0)
  let proceed = DispatchSemaphore(value: 0)
  let runs = Guarded(0)
  let observedFromMain = Guarded<[Bool]>([])

  override func main() {
    runs.withLock { $0 += 1 }
    observedFromMain.withLock { $0.append(isExecuting) }
    entered.signal()
    proceed.wait()
  }
}

/// Loops `while isExecuting`, announcing each round, with a long sleep between rounds.
private final class SleepyThread: ObservableThread, @unchecked Sendable {
  let aboutToSleep = DispatchSemaphore(value: 0)
  let rounds = Guarded(0)

  override func main() {
    while isExecuting {
      rounds.withLock { $0 += 1 }
      aboutToSleep.signal()
      Self.sleep(forTimeInterval: 600)
    }
  }
}

/// Reports the thread each pass's observers are called on.
private final class ReportingThread: KeyedObservableThread<String>, @unchecked Sendable {
  let threadOfMain = Guarded<UInt?>(nil)
  let ready = DispatchSemaphore(value: 0)

  override func main() {
    threadOfMain.withLock { $0 = currentThreadID() }
    ready.wait()
    withObservers { (observer: ThreadRecorder) in observer.record() }
    withKeyedObservers(key: "K") { (_, observer: ThreadRecorder) in observer.record() }
    waitUntilFinished()  // from the thread itself: returns at once instead of deadlocking
  }
}

private final class ThreadRecorder: @unchecked Sendable {
  let threads = Guarded<[UInt]>([])
  func record() { threads.withLock { $0.append(currentThreadID()) } }
}

@Suite("ObservableThread")
struct ObservableThreadTests {
  @Test("States before start, while running, after cancel and after main returns")
  func lifecycle() {
    let thread = SteeredThread()
    #expect([thread.isExecuting, thread.isCancelled, thread.isFinished] == [false, false, false])

    thread.start()
    #expect(thread.isExecuting, "executing as soon as start() returns")
    thread.entered.wait()
    #expect([thread.isExecuting, thread.isCancelled, thread.isFinished] == [true, false, false])

    thread.cancel()
    #expect([thread.isExecuting, thread.isCancelled, thread.isFinished] == [false, true, false])

    thread.proceed.signal()
    thread.waitUntilFinished()
    #expect([thread.isExecuting, thread.isCancelled, thread.isFinished] == [false, true, true])
    #expect(thread.observedFromMain.value == [true])
  }

  @Test("Starting twice runs main() once; the second start() does nothing")
  func startTwice() {
    let thread = SteeredThread()
    thread.start()
    thread.start()
    thread.entered.wait()
    thread.start()
    thread.proceed.signal()
    thread.waitUntilFinished()
    thread.start()
    #expect(thread.runs.value == 1)
    #expect(thread.isFinished)
  }

  @Test("Cancelling before start: start() finishes the thread without running main()")
  func cancelBeforeStart() {
    let thread = SteeredThread()
    thread.cancel()
    thread.cancel()
    #expect([thread.isExecuting, thread.isCancelled, thread.isFinished] == [false, true, false])
    thread.start()
    thread.waitUntilFinished()
    #expect([thread.isExecuting, thread.isCancelled, thread.isFinished] == [false, true, true])
    #expect(thread.runs.value == 0)
  }

  @Test("waitUntilFinished() before start returns at once")
  func waitBeforeStart() {
    let thread = SteeredThread()
    thread.waitUntilFinished()
    #expect(!thread.isFinished)
  }

  @Test("cancel() wakes sleep(forTimeInterval:) and ends a while-isExecuting loop")
  func cancelWakesSleep() {
    let thread = SleepyThread()
    thread.start()
    thread.aboutToSleep.wait()
    thread.cancel()
    thread.waitUntilFinished()  // ten minutes if the sleep were not cut short
    #expect(thread.rounds.value == 1)
  }

  @Test("sleep(forTimeInterval:) on another thread is an ordinary sleep")
  func sleepElsewhere() {
    let start = Date()
    ObservableThread.sleep(forTimeInterval: 0.01)
    ObservableThread.sleep(forTimeInterval: -1)
    #expect(Date().timeIntervalSince(start) >= 0.01)
  }

  @Test("Passes made by main() call observers on the thread")
  func callbacksOnTheThread() {
    let thread = ReportingThread()
    let (plain, keyed) = (ThreadRecorder(), ThreadRecorder())
    thread.addObserver(plain)
    thread.addKeyedObserver(key: "K", keyed)
    thread.start()
    thread.ready.signal()
    thread.waitUntilFinished()

    let threadOfMain = thread.threadOfMain.value
    #expect(threadOfMain != nil)
    #expect(threadOfMain != currentThreadID())
    #expect(plain.threads.value == [threadOfMain!])
    #expect(keyed.threads.value == [threadOfMain!, threadOfMain!])
  }

  @Test("A running thread keeps itself alive until main() returns")
  func keepsItselfAlive() {
    weak var weakThread: SteeredThread?
    let (entered, proceed): (DispatchSemaphore, DispatchSemaphore)
    do {
      let thread = SteeredThread()
      (entered, proceed) = (thread.entered, thread.proceed)
      weakThread = thread
      thread.start()
    }
    entered.wait()
    #expect(weakThread != nil)
    proceed.signal()
  }
}
