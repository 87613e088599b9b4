// A debug-build warning for two hub messages with one name and different payload types.
//
// Such messages are different messages by design (see `HubMessage`): a post of one never
// reaches the observers of the other. That is rarely what two declarations of one name
// meant, so debug builds say so, once per name and payload type, when the second kind is
// declared. Release builds keep no registry.

#if DEBUG
/// The payload types declared for each hub message name, and where warnings go.
package enum HubMessageNameCheck {
  private static let payloadTypes = Locked<[String: [ObjectIdentifier: String]]>([:])
  private static let sink = Locked<@Sendable (String) -> Void>({ print($0) })

  /// Records that a message called `name` carries `payload`, and warns if the name already
  /// carries another payload type.
  static func register(name: String, payload: Any.Type) {
    let type = ObjectIdentifier(payload)
    let others = payloadTypes.withLock { table -> [String]? in
      var types = table[name, default: [:]]
      guard types[type] == nil else { return nil }
      types[type] = String(reflecting: payload)
      table[name] = types
      return types.count > 1 ? types.filter { $0.key != type }.map(\.value).sorted() : nil
    }
    guard let others else { return }
    let warning = sink.withLock { $0 }
    warning(
      "ObservableKit warning: HubMessage \"\(name)\" is declared with payload type "
        + "\(String(reflecting: payload)) and also with \(others.joined(separator: ", ")). "
        + "These are different messages: a post of one never reaches the observers of another. "
        + "Give each its own name. (Debug builds only.)"
    )
  }

  /// Sends the warnings to `handler` while `body` runs, for the tests.
  package static func withWarnings<R>(sentTo handler: @escaping @Sendable (String) -> Void, _ body: () throws -> R) rethrows -> R {
    let previous = sink.withLock { sink in
      defer { sink = handler }
      return sink
    }
    defer { sink.withLock { $0 = previous } }
    return try body()
  }
}
#endif
