import Foundation
import ObservableKit

// An app's shape: synchronous top-level code on the main thread, then the main run loop, as
// UIApplicationMain and NSApplicationMain do. Values that come on the main thread (top-level
// code, a run-loop callback, a main-queue block) reach `observe(on: MainActor.shared)`
// handlers before the set or post returns, on every OS version; values from another thread
// reach them later, on the main actor, in order. Each print right after a set proves it.

@MainActor
final class Screen {
  var text = ""
  var history: [String] = []

  func show(_ line: String) {
    MainActor.assertIsolated()
    text = line
    history.append(line)
  }
}

let screen = Screen()
let score = Property(0)
let status = SharedProperty("idle")
let hub = SharedEventHub()
let tapped = HubMessage<String>("app.tapped")
let bag = DisposeBag()

score.observe(on: MainActor.shared) { screen.show("score \($0)") }.disposed(by: bag)
status.observe(on: MainActor.shared) { screen.show("status \($0)") }.disposed(by: bag)
hub.observe(tapped, on: MainActor.shared) { screen.show("tapped \($0)") }.disposed(by: bag)
print("launch, on the main thread \(Thread.isMainThread): \(screen.history)")
score.value = 1
print("top-level set: \(screen.text)")

/// Runs when the run loop has started: a run-loop callback on the main thread.
@MainActor
func runLoopStarted() {
  hub.post(tapped, "button")
  print("run-loop callback, on the main thread \(Thread.isMainThread): \(screen.text)")
  DispatchQueue.main.async { @MainActor in
    status.value = "busy"
    print("main-queue block: \(screen.text)")
    DispatchQueue.global().async {
      status.value = "saved 1"
      status.value = "saved 2"
      DispatchQueue.main.async { @MainActor in
        print("after two sets on another thread: \(screen.history.suffix(2))")
        exit(0)
      }
    }
  }
}

let timer = Timer(timeInterval: 0, repeats: false) { _ in
  MainActor.assumeIsolated { runLoopStarted() }
}
RunLoop.main.add(timer, forMode: .default)
RunLoop.main.run()
