import ObservableKit
import ObservableKitTesting
import TestSupport

/// The four surfaces a time operator is applied to: both families, events and properties.
enum TimeSurface: CaseIterable, CustomStringConvertible {
  case event, property, sharedEvent, sharedProperty

  var description: String { ["E", "P", "SE", "SP"][TimeSurface.allCases.firstIndex(of: self)!] }
}

/// The time rules, with the duration (or interval) the tests use.
enum TimeRuleKind: CaseIterable, CustomStringConvertible {
  case debounce, throttleLatest, throttleFirst, delay

  var description: String {
    switch self {
    case .debounce: "debounce"
    case .throttleLatest: "throttle(latest: true)"
    case .throttleFirst: "throttle(latest: false)"
    case .delay: "delay"
    }
  }
}

/// One source of a surface, fed `Int`s from the main actor, and the time operators applied to
/// it. A property result is held by the subscription to it alone (which keeps its feed), so
/// that disposing the token ends the whole chain.
@available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
@MainActor
final class TimeSubject {
  let surface: TimeSurface
  private let event = ObservableEvent<Int>()
  private let property = Property(0)
  private let sharedEvent = SharedEvent<Int>()
  private let sharedProperty = SharedProperty(0)

  init(_ surface: TimeSurface) {
    self.surface = surface
  }

  /// Notifies (or sets) the source.
  func send(_ value: Int) {
    switch surface {
    case .event: event.notifyObservers(value)
    case .property: property.value = value
    case .sharedEvent: sharedEvent.notifyObservers(value)
    case .sharedProperty: sharedProperty.value = value
    }
  }

  /// Applies `kind` and observes the values it lets through (a property result's changes).
  /// `handler` runs on the main actor: the confined family's handlers are isolated to it, and
  /// the shared family's timer deliveries run on it (its `isolation`), its throttle's opening
  /// values on the notifying thread, which is the main thread here; the check traps otherwise.
  func subscribe(
    _ kind: TimeRuleKind,
    for duration: Duration,
    clock: ManualClock,
    handler: @escaping @MainActor (Int) -> Void
  ) -> any Disposable {
    switch surface {
    case .event:
      let timed: ReadOnlyEvent<Int> =
        switch kind {
        case .debounce: event.debounce(for: duration, clock: clock)
        case .throttleLatest: event.throttle(for: duration, clock: clock, latest: true)
        case .throttleFirst: event.throttle(for: duration, clock: clock, latest: false)
        case .delay: event.delay(for: duration, clock: clock)
        }
      return timed.observe(handler)
    case .property:
      let timed: ReadOnlyProperty<Int> =
        switch kind {
        case .debounce: property.debounce(for: duration, clock: clock)
        case .throttleLatest: property.throttle(for: duration, clock: clock, latest: true)
        case .throttleFirst: property.throttle(for: duration, clock: clock, latest: false)
        case .delay: property.delay(for: duration, clock: clock)
        }
      return timed.observeChanges(handler)
    case .sharedEvent:
      let timed: SharedReadOnlyEvent<Int> =
        switch kind {
        case .debounce: sharedEvent.debounce(for: duration, clock: clock)
        case .throttleLatest: sharedEvent.throttle(for: duration, clock: clock, latest: true)
        case .throttleFirst: sharedEvent.throttle(for: duration, clock: clock, latest: false)
        case .delay: sharedEvent.delay(for: duration, clock: clock)
        }
      return timed.observeNonisolated { value in MainActor.assumeIsolated { handler(value) } }
    case .sharedProperty:
      let timed: SharedReadOnlyProperty<Int> =
        switch kind {
        case .debounce: sharedProperty.debounce(for: duration, clock: clock)
        case .throttleLatest: sharedProperty.throttle(for: duration, clock: clock, latest: true)
        case .throttleFirst: sharedProperty.throttle(for: duration, clock: clock, latest: false)
        case .delay: sharedProperty.delay(for: duration, clock: clock)
        }
      return timed.observeChangesNonisolated { value in MainActor.assumeIsolated { handler(value) } }
    }
  }
}
