@testable import ObservableKit
import Testing
import TestSupport

@Suite("HubMessage name clashes")
struct HubMessageNameCheckTests {
  @Test("A debug build warns once when a message name is declared with a second payload type")
  func warnsOnSecondPayloadType() {
    let warnings = Guarded<[String]>([])
    HubMessageNameCheck.withWarnings(sentTo: { message in warnings.withLock { $0.append(message) } }) {
      _ = HubMessage<Int>("nameCheck.score")
      _ = HubMessage<Int>("nameCheck.score")  // the same message again: no warning
      #expect(!warnings.value.contains { $0.contains("\"nameCheck.") })
      _ = HubMessage<String>("nameCheck.score")
      _ = HubMessage<String>("nameCheck.score")  // warned once
      _ = HubMessage<Void>("nameCheck.other")
    }
    // Other tests run meanwhile and may declare clashes of their own: keep this test's.
    let mine = warnings.value.filter { $0.contains("\"nameCheck.") }
    #expect(mine.count == 1)
    #expect(mine.first?.contains("\"nameCheck.score\"") == true)
    #expect(mine.first?.contains("Swift.String") == true)
    #expect(mine.first?.contains("Swift.Int") == true)
  }
}
