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
  /// and protocol-observer class; `nil` when ObservableKit was built without `DEBUG` (a
  /// release build), where the count is not kept.
  ///
  /// It counts registrations, not tokens: a subscription stops counting when it is
  /// disposed, when its owner is found gone, or when its source deinitializes.
  public static var liveSubscriptionCount: Int? {
    #if DEBUG
    Int(okit_live_subscriptions())
    #else
    nil
    #endif
  }

  /// Adjusts the count. Not inlinable, so that the count follows how ObservableKit itself
  /// was built, whatever the build of the code that inlines the storage.
  @usableFromInline
  static func subscriptionsChanged(by delta: Int) {
    #if DEBUG
    okit_live_subscriptions_add(Int64(delta))
    #endif
  }
}
