import ObservableKitShims

/// The process-wide count of live subscriptions that `Diagnostics.liveSubscriptionCount`
/// reads, kept by the code that makes and ends subscriptions, in a debug build of
/// ObservableKit.
@usableFromInline
enum LiveSubscriptions {
  /// Adjusts the count. Not inlinable, so that the count follows how ObservableKit itself
  /// was built, whatever the build of the code that inlines the storage.
  @usableFromInline
  static func changed(by delta: Int) {
    #if DEBUG
    okit_live_subscriptions_add(Int64(delta))
    #endif
  }
}
