import ObservableKitShims

/// Process-wide diagnostics for leak tests.
///
/// ```swift
/// let before = Diagnostics.liveSubscriptionCount
/// showAndDismissScreen()
/// #expect(Diagnostics.liveSubscriptionCount == before)
/// ```
public enum Diagnostics {
  /// The number of subscriptions alive in the whole process, across every event, property
  /// and protocol-observer class, in a debug build of ObservableKit; always 0 in a release
  /// build, where the count is not kept (``isCountingSubscriptions`` tells which). A plain
  /// `Int`, so `print(Diagnostics.liveSubscriptionCount)` prints the number.
  ///
  /// It counts subscriptions, not tokens: a subscription stops counting when it is
  /// disposed, when its owner is found gone, or when its source deinitializes.
  public static var liveSubscriptionCount: Int {
    #if DEBUG
    Int(okit_live_subscriptions())
    #else
    0
    #endif
  }

  /// Whether ``liveSubscriptionCount`` counts: true when ObservableKit was built with
  /// `DEBUG` (a debug build), false in a release build, where the count stays 0.
  public static var isCountingSubscriptions: Bool {
    #if DEBUG
    true
    #else
    false
    #endif
  }
}
