// The spellings of persisted properties and bindings, as users write them in Swift 6:
// a nonisolated settings class, a @MainActor model, shared properties from any thread.
import Foundation
import ObservableKit

enum Theme: String, Codable { case system, light, dark }

extension UserDefaults {
  /// The app's own suite. swift-corelibs-foundation (Linux) marks `UserDefaults` not Sendable;
  /// Apple's Foundation marks it Sendable, where `nonisolated(unsafe)` is not needed.
  nonisolated(unsafe) static let app = UserDefaults(suiteName: "okit.consumer")!
}

final class Settings: PropertyModel {
  @Property(storage: .userDefaults("launchCount")) var launchCount = 0
  @Property(storage: .userDefaults("theme", in: .app)) var theme = Theme.system
}

@MainActor final class SettingsModel {
  @Property(storage: .userDefaults("volume", in: .app)) var volume = 0.5
  let bag = DisposeBag()
  var text = ""

  init() {
    $volume.observe { [weak self] in self?.text = "\($0)" }.disposed(by: bag)
  }
}

func persistedAndBound() {
  let defaults = UserDefaults.app
  let volume = Property(0.5, storage: .userDefaults("volume", in: defaults))
  let shared = SharedProperty(["a"], storage: .userDefaults("tags", in: defaults))
  let a = Property(1), b = Property(2)
  let disposable = a.bind(to: b)
  let celsius = Property(20.0), fahrenheit = Property(68.0)
  celsius.bind(to: fahrenheit, map: { $0 * 9 / 5 + 32 }, reverse: { ($0 - 32) * 5 / 9 })
  let sharedA = SharedProperty(0), sharedB = SharedProperty(0)
  sharedA.bind(to: sharedB)
  Task.detached { sharedA.value = 3; shared.value = ["b"] }
  volume.reloadFromStorage()
  celsius.map { $0 * 2 }.bind(to: volume)
  disposable.dispose()
}
