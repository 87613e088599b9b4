import Observable
import ObservableKit
import Testing

// The classes as a user shares them across threads in checked code: restating
// `@unchecked Sendable` on the subclass, which vouches for the state it adds (none here).
final class SharedObservableClass: ObservableClass, @unchecked Sendable {}
final class SharedThreadSafeClass: ObservableThreadSafeClass, @unchecked Sendable {}
final class SharedObservableThread: ObservableThread, @unchecked Sendable {}
final class SharedKeyedClass: KeyedObservableClass<String>, @unchecked Sendable {}
final class SharedKeyedThreadSafeClass: KeyedObservableThreadSafeClass<String>, @unchecked Sendable {}
final class SharedKeyedThread: KeyedObservableThread<String>, @unchecked Sendable {}

/// The three families of observables; every behavioural test runs against each.
enum Family: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case plain = "ObservableClass"
  case threadSafe = "ObservableThreadSafeClass"
  case thread = "ObservableThread"
  case keyedPlain = "KeyedObservableClass"
  case keyedThreadSafe = "KeyedObservableThreadSafeClass"
  case keyedThread = "KeyedObservableThread"

  /// The three base families, without their keyed variants.
  static let base: [Family] = [.plain, .threadSafe, .thread]

  func make() -> any Observable & Sendable {
    switch self {
    case .plain: SharedObservableClass()
    case .threadSafe: SharedThreadSafeClass()
    case .thread: SharedObservableThread()
    case .keyedPlain: SharedKeyedClass()
    case .keyedThreadSafe: SharedKeyedThreadSafeClass()
    case .keyedThread: SharedKeyedThread()
    }
  }

  var testDescription: String { rawValue }
}

/// The three keyed families.
enum KeyedFamily: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case plain = "KeyedObservableClass"
  case threadSafe = "KeyedObservableThreadSafeClass"
  case thread = "KeyedObservableThread"

  func make() -> any KeyedObservable<String> & Sendable {
    switch self {
    case .plain: SharedKeyedClass()
    case .threadSafe: SharedKeyedThreadSafeClass()
    case .thread: SharedKeyedThread()
    }
  }

  var testDescription: String { rawValue }
}

/// What an observable holds, dead observers included.
struct Census: Equatable, CustomStringConvertible {
  /// Observers registered plainly or for a key, once each.
  var observers: Int
  /// Keys with at least one subscription.
  var keys: Int
  /// One per observer plus one per (key, observer).
  var subscriptions: Int

  init(observers: Int, keys: Int, subscriptions: Int) {
    self.observers = observers
    self.keys = keys
    self.subscriptions = subscriptions
  }

  var description: String { "observers: \(observers), keys: \(keys), subscriptions: \(subscriptions)" }
}

/// What the observer list of `observable` holds; every class of the module is an
/// `ObservableClass`, whose list is a `KeyedWeakObserverList` (read with its package counters).
func census(_ observable: any Observable) -> Census {
  let list = (observable as! ObservableClass).observerList as! any StoredObserverCounts
  return Census(
    observers: list.storedMemberCount,
    keys: list.storedKeyCount,
    subscriptions: list.storedMemberCount + list.storedKeyedSubscriptionCount
  )
}
