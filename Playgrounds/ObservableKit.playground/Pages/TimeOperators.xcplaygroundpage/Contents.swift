/*:
 [Previous: operators](@previous)

 # Time operators

 `debounce`, `throttle` and `delay` work on events and properties of both families, on any
 `Clock` (by default `ContinuousClock`). Their handlers run where the operator was applied:
 here, top-level code, on the main actor.

 This page drives them with `ManualClock` from `ObservableKitTesting`, as a test would:
 time moves only when the page advances it, and when `advance` returns, every timer due by
 then has fired and its handlers have run. So the page prints the same lines on every run,
 without sleeping.

 [Next: owner-bound observation](@next)
 */
import ObservableKit
import ObservableKitTesting

if #available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *) {
  /*:
   `debounce` waits until the values stop for the given duration, then delivers the last
   one: a search field's query, searched once the user pauses. Each deadline is taken
   when the value arrives.
   */
  print("--- debounce a search field")
  let clock = ManualClock()
  let query = Property("")
  let search = query.changes
    .debounce(for: .milliseconds(300), clock: clock)
    .observe { print("search for '\($0)' at \(clock.now)") }
  query.value = "s"
  await clock.advance(by: .milliseconds(100))
  query.value = "sw"
  await clock.advance(by: .milliseconds(100))
  query.value = "swift"
  await clock.advance(by: .seconds(1))
  search.dispose()
  print()

  /*:
   `throttle` delivers the first value at once, then at most one per interval: the latest
   value of each interval (`latest: true`) or its first (`latest: false`), at its end.
   */
  print("--- throttle taps")
  let tapClock = ManualClock()
  let taps = ObservableEvent<Int>()
  let latest = taps.throttle(for: .seconds(1), clock: tapClock, latest: true)
    .observe { print("latest: tap \($0) at \(tapClock.now)") }
  let first = taps.throttle(for: .seconds(1), clock: tapClock, latest: false)
    .observe { print("first:  tap \($0) at \(tapClock.now)") }
  for tap in 1...4 {
    taps.notifyObservers(tap)
    await tapClock.advance(by: .milliseconds(300))
  }
  await tapClock.advance(by: .seconds(2))
  latest.dispose()
  first.dispose()
  print()

  /*:
   `delay` delivers each value the given duration after it came, in order. On a property,
   each time operator returns a read-only property that holds the value it let through.
   */
  print("--- delay, and a property's settled value")
  let level = Property(0)
  let delayed = level.delay(for: .seconds(2), clock: clock)
  let settled = level.debounce(for: .milliseconds(500), clock: clock)
  level.value = 1
  level.value = 2
  print("right after the sets: delayed \(delayed.value), settled \(settled.value)")
  await clock.advance(by: .milliseconds(500))
  print("after 0.5 s: delayed \(delayed.value), settled \(settled.value)")
  await clock.advance(by: .milliseconds(1500))
  print("after 2 s: delayed \(delayed.value), settled \(settled.value)")
  print()

  /*:
   `record()` collects what a source delivers, for a test to compare.
   */
  print("--- record")
  let recorder = taps.debounce(for: .seconds(1), clock: clock).record()
  taps.notifyObservers(7)
  taps.notifyObservers(8)
  await clock.advance(by: .seconds(1))
  print("recorded:", recorder.values)
}
