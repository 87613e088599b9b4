// Run by scripts/check-apple-branches.sh against the stand-in Combine: Sources/Observable's
// `canImport(Combine)` branch, built and run, delivers `objectWillChange.send()` and
// `notifyChange()` to a subscriber. The stand-in models Combine's default `objectWillChange`
// (a new publisher per access for a class that stores none), which the first check shows, so
// the checks after it would fail if ObservableClass relied on that default.
import Combine
import Dispatch
import Foundation
import Observable

/// A class that stores no publisher and has no `@Published` field.
final class Bare: ObservableObject {}

/// A Flowduino-style model: the setter sends before the change.
final class Player: ObservableClass {
  var title = "" {
    willSet { objectWillChange.send() }
  }
}

var failures = 0
@MainActor func check(_ passed: Bool, _ what: String) {
  print(passed ? "ok  " : "FAIL", what)
  if !passed { failures += 1 }
}

/// The synchronous `notifyChange()`.
func notifyLater(_ player: Player) {
  player.notifyChange()
}

/// The `async` `notifyChange()`, which an async context picks.
func notifyAndWait(_ player: Player) async {
  await player.notifyChange()
}

let bare = Bare()
var bareHeard = 0
let bareSink = bare.objectWillChange.sink { bareHeard += 1 }
bare.objectWillChange.send()
check(bareHeard == 0, "Combine's default objectWillChange (stand-in): a new publisher per access, a send reaches nobody")

let player = Player()
check(player.objectWillChange === player.objectWillChange, "ObservableClass stores one objectWillChange")
var heard = 0
let sink = player.objectWillChange.sink { heard += 1 }
player.objectWillChange.send()
check(heard == 1, "objectWillChange.send() reaches a subscriber")
player.title = "Song"
check(heard == 2, "a setter's objectWillChange.send() reaches it")
await notifyAndWait(player)
check(heard == 3, "await notifyChange() reaches it before it returns")
notifyLater(player)
check(heard == 3, "notifyChange() returns before it sends")
// It sends from a main-actor task: let the main actor run it, with a watchdog.
let deadline = DispatchTime.now() + .seconds(10)
while heard < 4 && DispatchTime.now() < deadline { await Task.yield() }
check(heard == 4, "notifyChange() reaches it, later, on the main actor")
sink.cancel()
player.objectWillChange.send()
check(heard == 4, "a cancelled subscriber hears nothing more")
withExtendedLifetime(bareSink) {}
exit(failures == 0 ? 0 : 1)
