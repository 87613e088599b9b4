// What README.md's Swift blocks may use without declaring it: ObservableKit, and two
// stand-ins for app code that a snippet calls. scripts/check-readme.sh compiles every block
// after this; keep it this small, so that the blocks stay honest.
@_exported import ObservableKit

/// Stands in for an app's label.
@MainActor
public final class Label {
  public var text = ""
  public init() {}
}

/// Stands in for the label that shows the score on screen.
@MainActor public let scoreLabel = Label()

/// Stands in for persisting a score.
public func save(_ score: Int) {}
