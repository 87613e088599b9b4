// Scenarios 3o, 3os and 5m for count-instructions.sh (the suite's OwnersAndBag.swift): owner
// churn in both families and the bag over 100 sources. Keep them in step with the suite.

import BenchmarkSupport
import ObservableKit
import OpenCombine

@inline(never) func measured_ownerChurn(_ event: ObservableEvent<Int>, _ owner: BenchOwner, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { event.observe(with: owner, makeOwnerHandler(sink)).dispose() }
}
@inline(never) func measured_ownerChurn(_ event: SharedEvent<Int>, _ owner: BenchOwner, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { event.observe(with: owner, makeOwnerHandler(sink)).dispose() }
}
@inline(never) func measured_ownerChurn(_ event: BaselineEvent<Int>, _ owner: BenchOwner, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { event.remove(event.add(makeWeakOwnerHandler(owner, makeOwnerHandler(sink)))) }
}
@inline(never) func measured_ownerChurn(_ subject: PassthroughSubject<Int, Never>, _ owner: BenchOwner, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { subject.sink(receiveValue: makeWeakOwnerHandler(owner, makeOwnerHandler(sink))).cancel() }
}
@inline(never) func measured_bag100(_ events: [ObservableEvent<Int>], _ sink: Sink) {
  let bag = DisposeBag()
  for event in events { event.observe(makeHandler(sink)).disposeWith(bag) }
  bag.dispose()
}
@inline(never) func measured_bag100(_ events: [BaselineEvent<Int>], _ sink: Sink) {
  var ids = ContiguousArray<UInt64>()
  for event in events { ids.append(event.add(makeHandler(sink))) }
  for (event, id) in zip(events, ids) { event.remove(id) }
}
@inline(never) func measured_bag100(_ subjects: [PassthroughSubject<Int, Never>], _ sink: Sink) {
  var cancellables = Set<AnyCancellable>()
  for subject in subjects { subject.sink(receiveValue: makeHandler(sink)).store(in: &cancellables) }
  cancellables.removeAll()
}

/// Runs scenario `scenario` of `contender` if it is one of this file's; false otherwise.
func runOwnersAndBag(_ scenario: String, _ contender: String, _ reps: Int, _ sink: Sink) -> Bool {
  let owner = BenchOwner()
  switch (scenario, contender) {
  case ("ownerChurn", "ObservableKit"):
    let event = ObservableEvent<Int>()
    let tokens = (0..<10).map { _ in event.observe(makeHandler(sink)) }
    withExtendedLifetime(tokens) { measured_ownerChurn(event, owner, sink, reps) }
  case ("sharedOwnerChurn", "ObservableKit"):
    let event = SharedEvent<Int>()
    let tokens = (0..<10).map { _ in event.observeNonisolated(makeHandler(sink)) }
    withExtendedLifetime(tokens) { measured_ownerChurn(event, owner, sink, reps) }
  case ("ownerChurn", "Baseline"), ("sharedOwnerChurn", "Baseline"):
    let event = BaselineEvent<Int>()
    for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
    measured_ownerChurn(event, owner, sink, reps)
  case ("ownerChurn", "OpenCombine"), ("sharedOwnerChurn", "OpenCombine"):
    let subject = PassthroughSubject<Int, Never>()
    let cancellables = (0..<10).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
    withExtendedLifetime(cancellables) { measured_ownerChurn(subject, owner, sink, reps) }
  case ("bag100", "ObservableKit"):
    let events = (0..<100).map { _ in ObservableEvent<Int>() }
    for _ in 0..<(reps / 100) { measured_bag100(events, sink) }
  case ("bag100", "Baseline"):
    let events = (0..<100).map { _ in BaselineEvent<Int>() }
    for _ in 0..<(reps / 100) { measured_bag100(events, sink) }
  case ("bag100", "OpenCombine"):
    let subjects = (0..<100).map { _ in PassthroughSubject<Int, Never>() }
    for _ in 0..<(reps / 100) { measured_bag100(subjects, sink) }
  default:
    return false
  }
  return true
}
