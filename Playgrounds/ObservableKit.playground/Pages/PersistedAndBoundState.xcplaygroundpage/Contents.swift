/*:
 [Previous: a small app model](@previous)

 # Persisted and bound state

 Give a property a storage, and it starts from the stored value, writes every set through
 before the set returns, and hears changes made elsewhere: from another property on the
 same key, from the platform's change notification, or from `reloadFromStorage()`. Bind two
 properties, and a set on either side reaches the other once, with no echo and no loop.
 */
import Foundation
import ObservableKit

/// A private suite, so that the page starts from nothing every time it runs.
let suite = "ObservableKit.playground.persisted"
let defaults = UserDefaults(suiteName: suite)!
defaults.removePersistentDomain(forName: suite)

enum Theme: String, Codable { case system, light, dark }

final class Settings: PropertyModel {
  @Property var launchCount: Int
  @Property var theme: Theme
  init(defaults: UserDefaults) {
    _launchCount = Property(wrappedValue: 0, storage: .userDefaults("launchCount", in: defaults))
    _theme = Property(wrappedValue: .system, storage: .userDefaults("theme", in: defaults))
  }
}

example("a persisted property starts from the store and writes every set") {
  let settings = Settings(defaults: defaults)
  settings.launchCount += 1
  settings.theme = .dark  // a Codable enum: stored as JSON data
  print("stored count:", defaults.integer(forKey: "launchCount"))
  let again = Settings(defaults: defaults)
  print("a new model starts at:", again.launchCount, again.theme)
}

/*:
 Two properties on one key stay in step, and a change made straight to `UserDefaults`
 arrives as one ordinary set. Apple platforms report `defaults.set` at once; on Linux,
 `reloadFromStorage()` picks it up.
 */
example("changes from elsewhere arrive once; removing the key means the default") {
  let volume = Property(0.5, storage: .userDefaults("volume", in: defaults))
  let mirror = Property(0.5, storage: .userDefaults("volume", in: defaults))
  let bag = DisposeBag()
  mirror.observeChanges { print("mirror heard:", $0) }.disposed(by: bag)
  volume.value = 0.8
  defaults.set(0.3, forKey: "volume")
  mirror.reloadFromStorage()  // a no-op where the platform already reported it
  defaults.removeObject(forKey: "volume")
  mirror.reloadFromStorage()
  print("mirror:", mirror.value)
}

example("bad stored data: the default, and the data left alone") {
  defaults.set("loud", forKey: "level")
  let level = Property(3, storage: .userDefaults("level", in: defaults))
  print("level:", level.value, "— stored:", defaults.string(forKey: "level") ?? "nil")
}

/*:
 A binding keeps two properties equal. A lossy mapping does not bounce back, and a handler
 may set either side during a propagation: the last write wins on both.
 */
example("two-way bindings") {
  let celsius = Property(20.0), fahrenheit = Property(0.0)
  let bag = DisposeBag()
  celsius.bind(to: fahrenheit, map: { $0 * 9 / 5 + 32 }, reverse: { ($0 - 32) * 5 / 9 }).disposed(by: bag)
  print("fahrenheit after bind:", fahrenheit.value)
  fahrenheit.observeChanges { print("°F:", $0) }.disposed(by: bag)
  celsius.observeChanges { print("°C:", $0) }.disposed(by: bag)
  fahrenheit.value = 212
  celsius.value = 37
  let a = Property("draft"), b = Property("")
  let binding = a.bind(to: b)
  b.observeChanges { if $0 == "typo" { b.value = "fixed" } }.disposed(by: bag)
  a.value = "typo"
  print("a:", a.value, "b:", b.value)
  binding.dispose()
  a.value = "after dispose"
  print("b after dispose:", b.value)
}

example("a persisted property bound to a view model's") {
  final class Slider { let position = Property(0.0) }
  let slider = Slider()
  let volume = Property(0.5, storage: .userDefaults("volume", in: defaults))
  let bag = DisposeBag()
  volume.bind(to: slider.position).disposed(by: bag)
  slider.position.value = 0.9
  print("stored volume:", defaults.double(forKey: "volume"))
}

defaults.removePersistentDomain(forName: suite)
