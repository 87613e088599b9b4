import Testing
import TestSupport

@testable import ObservableKit

/// The lean property subscription: one subscriber object per `observe`, a token that is a
/// value. These pin what that shape must keep from the one it replaced.
@Suite("Property subscriptions")
struct PropertySubscriptionTests {
  @Test("Contract: a disposed property subscription releases its handler at once, though its token is kept")
  func disposeReleasesHandler() {
    let tracker = LifetimeTracker()
    let property = Property(0)
    let token = Self.observe(property, capturing: tracker.make())
    let changes = Self.observeChanges(property, capturing: tracker.make())
    #expect(tracker.liveCount == 2)
    token.dispose()
    changes.dispose()
    #expect(tracker.liveCount == 0, "the tokens hold the storage, not the handlers")
    #expect(token.isDisposed && changes.isDisposed)
    token.dispose()  // idempotent
    #expect(property.observerCount == 0)
  }

  @Test("Contract: a handler that captures its own token is released by disposing it (no cycle)")
  func selfDisposingHandlerIsReleased() {
    let tracker = LifetimeTracker()
    let property = Property(0)
    let slot = Guarded<(any Disposable)?>(nil)
    do {
      let tracked = tracker.make()
      slot.value = property.observe { value in
        tracked.touch()
        if value == 1 { slot.value?.dispose() }
      }
    }
    property.value = 1
    #expect(tracker.liveCount == 0, "disposed from inside its own call, the handler is gone once the pass ends")
    property.value = 2
    #expect(slot.value?.isDisposed == true)
  }

  @Test("Contract: a property token ends when the property deinitializes")
  func tokenEndsWithProperty() {
    let tracker = LifetimeTracker()
    var property: Property<Int>? = Property(0)
    let token = Self.observe(property!, capturing: tracker.make())
    property = nil
    #expect(tracker.liveCount == 0)
    #expect(token.isDisposed)
    token.dispose()  // a no-op on a property that is gone
  }

  @Test("Contract: a bag stops a property's subscriptions before releasing captured state or running other disposables")
  func bagStopsPropertySubscriptionsFirst() {
    nonisolated(unsafe) let property = Property("start")
    let heard = ValueLog<String>()
    let tracker = LifetimeTracker()
    let bag = DisposeBag()
    Self.observe(property, capturing: tracker.make { property.value = "from deinit" }).disposed(by: bag)
    bag.addDisposable(CallbackDisposable { property.value = "from custom disposable" })
    property.observeChanges(heard.handler).disposed(by: bag)
    bag.dispose()
    #expect(heard.values == [], "no sibling handler heard the teardown")
    #expect(tracker.liveCount == 0)
  }

  @Test("A plain or owner-bound observe (property or event) returns a value token: no token object is allocated")
  func plainObserveTokenIsAValue() {
    let property = Property(0)
    let shared = SharedProperty(0)
    let event = ObservableEvent<Int>()
    let tokens = [
      property.observe { _ in }, property.observeChanges { _ in }, shared.observeNonisolated { _ in },
      event.observe { _ in },
    ]
    for token in tokens {
      #expect(!(type(of: token as Any) is AnyClass))
      token.dispose()
    }
    // Owner-bound subscriptions too: the storage, not the token, holds the owner's link.
    final class Owner {}
    let owner = Owner()
    let owned = property.observe(with: owner) { _, _ in }
    #expect(!(type(of: owned as Any) is AnyClass))
    owned.dispose()
  }

  private static func observe<T>(_ property: Property<T>, capturing tracked: Tracked) -> any Disposable {
    property.observe { _ in tracked.touch() }
  }

  private static func observeChanges<T>(_ property: Property<T>, capturing tracked: Tracked) -> any Disposable {
    property.observeChanges { _ in tracked.touch() }
  }
}
