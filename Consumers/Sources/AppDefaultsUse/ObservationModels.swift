import Observation
import ObservableKit

// An @Observable model and a view model that observes it with closures, and a value type
// made from a shared event's values. AppDefaultsUse compiles this file without the
// annotations, under a main-actor default isolation; the two must stay alike.

/// A model as apps write them now. `@Property` under `@Observable` needs
/// `@ObservationIgnored`; the property still reports its reads to Observation.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class Person {
  var first = "Ada"
  var last = "Lovelace"
  @ObservationIgnored @Property var age = 36
}

/// A view model with a property computed from the model's Observation-tracked reads.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class ProfileViewModel {
  let fullName: ReadOnlyProperty<String>
  let summary: ReadOnlyProperty<String>
  var titles: [String] = []
  var summaries: [String] = []
  let bag = DisposeBag()

  init(person: Person) {
    fullName = ReadOnlyProperty(tracking: { person.first + " " + person.last })
    summary = ReadOnlyProperty(tracking: { "\(person.first), \(person.age)" }).removeDuplicates()
    fullName.observe(with: self) { viewModel, name in viewModel.titles.append(name) }
    summary.observe { [weak self] in self?.summaries.append($0) }.disposed(by: bag)
  }
}

/// A row of a list: a value type that any domain may make and compare. Under a main-actor
/// default isolation it must say `nonisolated`, or its Equatable conformance is isolated to
/// the main actor and a shared operator cannot use it.
nonisolated struct Row: Equatable, CustomStringConvertible {
  let text: String
  var description: String { "Row(\(text))" }
}

/// Shows rows made from a shared event's values, skipping repeats.
final class RowsViewModel {
  var rows: [Row] = []
  let bag = DisposeBag()

  init(messages: SharedEvent<String>) {
    messages.map { Row(text: $0) }.removeDuplicates()
      .observe { [weak self] in self?.rows.append($0) }.disposed(by: bag)
  }
}

func observationModels() async {
  if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
    let person = Person()
    let profile = ProfileViewModel(person: person)
    print("profile at once: \(profile.fullName.value) | \(profile.titles) | \(profile.summaries)")
    person.first = "Grace"
    person.last = "Hopper"
    print("profile in the same turn: \(profile.titles)")
    await profile.waitUntil { profile.titles.count == 2 && profile.summaries.count == 2 }
    print("profile after one turn: \(profile.titles) | \(profile.summaries)")
    person.age = 37  // through @Property, which reports to Observation too
    person.last = "Brewster"  // read by the full name only
    await profile.waitUntil { profile.titles.count == 3 && profile.summaries.count == 3 }
    print("profile after age and last: \(profile.titles) | \(profile.summaries)")
  }

  let messages = SharedEvent<String>()
  let rows = RowsViewModel(messages: messages)
  for text in ["a", "a", "b"] { messages.notifyObservers(text) }
  print("rows: \(rows.rows)")
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension ProfileViewModel {
  /// Waits, a bounded number of turns of the main actor, until `condition` holds.
  func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<10_000 {
      if condition() { return }
      await Task.yield()
    }
    fatalError("the recompute did not reach the main actor within 10,000 yields")
  }
}
