import Testing
import TestSupport

import ObservableKit

@Suite("Diagnostics")
struct DiagnosticsTests {
  // Exit tests run where swift-testing can spawn a child process: macOS and Linux.
  #if os(macOS) || os(Linux)
  @Test("the live-subscription count follows observe, dispose, owners, bags and deinit")
  func liveSubscriptionCount() async {
    // In a child process, so that tests running in parallel do not move the count.
    await #expect(processExitsWith: .success) {
      final class Owner: Sendable {}
      func expectCount(_ expected: Int, _ what: String) {
        precondition(Diagnostics.liveSubscriptionCount == expected, "\(what): \(Diagnostics.liveSubscriptionCount)")
      }
      expectCount(0, "start")
      let event = ObservableEvent<Int>()
      let property = Property(0)
      let token = event.observe { _ in }
      let bag = DisposeBag()
      property.observe { _ in }.disposed(by: bag)
      property.map { $0 + 1 }.observe { _ in }.disposed(by: bag)
      expectCount(3, "after observing")
      token.dispose()
      token.dispose()
      expectCount(2, "after disposing twice")
      bag.dispose()
      expectCount(0, "after the bag")
      var owner: Owner? = Owner()
      event.observe(with: owner!) { _, _ in }
      expectCount(1, "owner-bound")
      owner = nil
      _ = event.observerCount  // the next touch removes the dead owner's subscription
      expectCount(0, "after the owner died")
      do {
        let transient = ObservableEvent<Int>()
        _ = transient.observe { _ in }
        expectCount(1, "before the event deinitializes")
      }
      expectCount(0, "after the event deinitialized")
    }
  }
  #endif
}
