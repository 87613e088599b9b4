import ObservableKit
import Testing

@Suite("Diagnostics printing")
struct DiagnosticsPrintTests {
  @Test("liveSubscriptionCount is a plain Int that prints as a number; a debug build counts")
  func printsAsNumber() {
    let count: Int = Diagnostics.liveSubscriptionCount
    #expect("\(count)" == String(count))
    #expect(count >= 0)
    #expect(Diagnostics.isCountingSubscriptions, "the tests build ObservableKit in debug")
  }
}
