// A small release executable for `count-instructions.sh`: runs one scenario of one contender
// a fixed number of times, with the measured loop in a function whose name contains
// `measured_`, so that `valgrind --tool=callgrind --toggle-collect='*measured_*'` counts the
// instructions of that loop alone. Instruction counts do not depend on what else the machine
// is doing, so they complement the wall-clock suite on a shared machine.
//
// Usage: InstructionCounts SCENARIO CONTENDER REPS [--print]   (--print shows the handlers' total)
// CONTENDER is ObservableKit, Baseline, OpenCombine, or the peer of scenarios 10 and 11:
// StoredProperty, NotificationCenter.
// The handler, the baselines and the compat subjects come from BenchmarkSupport (Support/),
// shared with the benchmark suite; the scenarios below repeat the suite's
// (Benchmarks/ObservableKitBenchmarks): keep them in step.

import BenchmarkSupport
import Foundation
import Observable
import ObservableKit
import ObservableKitTesting
import OpenCombine

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The optimizer barrier for the handlers' total; a local one, so that the tool does not
/// depend on package-benchmark.
@inline(never)
func blackHole<T>(_ value: T) {}

// MARK: - Measured loops

// The shared family as main-actor code writes it (scenarios 14 and 16 of SharedPaths.swift):
// top-level code runs on the main actor, so `observe { }` here registers a main-actor handler.
@MainActor func observeOnMainActor(_ event: SharedEvent<Int>, _ sink: Sink) -> any Disposable {
  event.observe { value in sink.slot.pointee &+= value }
}
@inline(never) @MainActor func measured_sharedNotify(_ event: SharedEvent<Int>, _ reps: Int) {
  for value in 0..<reps { event.notifyObservers(value) }
}
@inline(never) @MainActor func measured_sharedChurn(_ event: SharedEvent<Int>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { observeOnMainActor(event, sink).dispose() }
}

@inline(never) func measured_notify(_ event: ObservableEvent<Int>, _ reps: Int) {
  for value in 0..<reps { event.notifyObservers(value) }
}
@inline(never) func measured_notify(_ event: BaselineEvent<Int>, _ reps: Int) {
  for value in 0..<reps { event.notify(value) }
}
@inline(never) func measured_notify(_ subject: PassthroughSubject<Int, Never>, _ reps: Int) {
  for value in 0..<reps { subject.send(value) }
}
@inline(never) func measured_set(_ property: Property<Int>, _ reps: Int) {
  for value in 0..<reps { property.value = value }
}
@inline(never) func measured_set(_ property: BaselineProperty<Int>, _ reps: Int) {
  for value in 0..<reps { property.value = value }
}
@inline(never) func measured_set(_ subject: CurrentValueSubject<Int, Never>, _ reps: Int) {
  for value in 0..<reps { subject.value = value }
}
@inline(never) func measured_churnA_ok(_ sink: Sink, _ reps: Int) {
  for value in 0..<reps {
    let event = ObservableEvent<Int>()
    let token = event.observe(makeHandler(sink))
    event.notifyObservers(value)
    token.dispose()
  }
}
@inline(never) func measured_churnA_base(_ sink: Sink, _ reps: Int) {
  for value in 0..<reps {
    let event = BaselineEvent<Int>()
    let id = event.add(makeHandler(sink))
    event.notify(value)
    event.remove(id)
  }
}
@inline(never) func measured_churnA_oc(_ sink: Sink, _ reps: Int) {
  for value in 0..<reps {
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.sink(receiveValue: makeHandler(sink))
    subject.send(value)
    cancellable.cancel()
  }
}
@inline(never) func measured_churnB(_ event: ObservableEvent<Int>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { event.observe(makeHandler(sink)).dispose() }
}
@inline(never) func measured_churnB(_ event: BaselineEvent<Int>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { event.remove(event.add(makeHandler(sink))) }
}
@inline(never) func measured_churnB(_ subject: PassthroughSubject<Int, Never>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { subject.sink(receiveValue: makeHandler(sink)).cancel() }
}
@inline(never) func measured_churnP(_ property: Property<Int>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { property.observe(makeHandler(sink)).dispose() }
}
@inline(never) func measured_churnP(_ event: BaselineEvent<Int>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps {
    let handler = makeHandler(sink)
    let id = event.add(handler)
    handler(1)
    event.remove(id)
  }
}
@inline(never) func measured_churnP(_ subject: CurrentValueSubject<Int, Never>, _ sink: Sink, _ reps: Int) {
  for _ in 0..<reps { subject.sink(receiveValue: makeHandler(sink)).cancel() }
}
@inline(never) func measured_teardown(_ tokens: [any Disposable], _ order: [Int]) {
  for index in order { tokens[index].dispose() }
}
@inline(never) func measured_teardown(_ event: BaselineEvent<Int>, _ ids: [UInt64], _ order: [Int]) {
  for index in order { event.remove(ids[index]) }
}
@inline(never) func measured_teardown(_ cancellables: [AnyCancellable], _ order: [Int]) {
  for index in order { cancellables[index].cancel() }
}
@inline(never) func measured_bag(_ event: ObservableEvent<Int>, _ sink: Sink, _ entries: Int) {
  let bag = DisposeBag()
  for _ in 0..<entries { event.observe(makeHandler(sink)).disposeWith(bag) }
  bag.dispose()
}
@inline(never) func measured_bag(_ event: BaselineEvent<Int>, _ sink: Sink, _ entries: Int) {
  var ids = ContiguousArray<UInt64>()
  for _ in 0..<entries { ids.append(event.add(makeHandler(sink))) }
  for id in ids { event.remove(id) }
}
@inline(never) func measured_bag(_ subject: PassthroughSubject<Int, Never>, _ sink: Sink, _ entries: Int) {
  var cancellables = Set<AnyCancellable>()
  for _ in 0..<entries { subject.sink(receiveValue: makeHandler(sink)).store(in: &cancellables) }
  cancellables.removeAll()
}
// The compat subjects loop over the values themselves (see Support/Compat.swift).
@inline(never) func measured_compat(_ subject: CompatSubject, _ reps: Int) {
  subject.emit(0..<reps)
}
@inline(never) func measured_compat(_ subject: HandWrittenSubject, _ reps: Int) {
  subject.emit(0..<reps)
}
@inline(never) func measured_keyed(_ subject: CompatKeyedSubject, _ keys: Int, _ reps: Int) {
  for _ in 0..<reps { subject.emit(keys: 0..<keys) }
}
@inline(never) func measured_keyed(_ subject: HandWrittenKeyedSubject, _ keys: Int, _ reps: Int) {
  for _ in 0..<reps { subject.emit(keys: 0..<keys) }
}

// Scenario 10: the loops are Support/Models.swift's, beside the models they set.
@inline(never) func measured_wrappedSet(_ model: WrappedModel50, _ reps: Int) { setWrapped(model, 0..<reps) }
@inline(never) func measured_wrappedSet(_ model: StoredModel50, _ reps: Int) { setStored(model, 0..<reps) }
@inline(never) func measured_wrappedSet(_ model: BaselineModel50, _ reps: Int) { setBaseline(model, 0..<reps) }
@inline(never) func measured_wrappedSet(_ model: WrappedModel50NoObservation, _ reps: Int) { setWrapped(model, 0..<reps) }
@inline(never) func measured_wrappedSet(_ model: StoredModel50NoObservation, _ reps: Int) { setStored(model, 0..<reps) }
// Scenario 11.
@inline(never) func measured_post(_ hub: EventHub, _ message: HubMessage<Int>, _ sender: Sender?, _ reps: Int) {
  for value in 0..<reps { hub.post(message, value, from: sender) }
}
@inline(never) func measured_post(_ hub: EventHub, _ message: HubMessage<Void>, _ reps: Int) {
  for _ in 0..<reps { hub.post(message) }
}
@inline(never) func measured_post(_ center: NotificationCenter, _ name: Notification.Name, _ sender: Sender?, _ reps: Int) {
  for value in 0..<reps { center.post(name: name, object: sender, userInfo: [notificationValueKey: value]) }
}
@inline(never) func measured_postNoPayload(_ center: NotificationCenter, _ name: Notification.Name, _ reps: Int) {
  for _ in 0..<reps { center.post(name: name, object: nil) }
}
// The Void baseline's loop is in Support (see makeVoidBaseline).
@inline(never) func measured_notify(_ event: BaselineEvent<Void>, _ reps: Int) { notifyVoid(event, reps) }
@inline(never) func measured_notify(_ event: SharedEvent<Int>, _ reps: Int) {
  for value in 0..<reps { event.notifyObservers(value) }
}

/// The actor scenario 12's shared debounce delivers on; no deadline is reached.
actor DebounceTarget {}

// MARK: - Main

let arguments = CommandLine.arguments
guard arguments.count >= 4, let reps = Int(arguments[3]) else {
  print("usage: InstructionCounts SCENARIO ObservableKit|Baseline|OpenCombine|StoredProperty|NotificationCenter REPS [--print]")
  exit(2)
}
let scenario = arguments[1]
let contender = arguments[2]
let sink = Sink()

func observers(_ scenario: String) -> Int {
  Int(scenario.split(separator: "-").last.map(String.init) ?? "1") ?? 1
}

switch (scenario, contender) {
// Scenarios 3o, 3os and 5m (OwnersAndBag.swift).
case _ where runOwnersAndBag(scenario, contender, reps, sink): break
case (let s, "ObservableKit") where s.hasPrefix("notify-"):
  let event = ObservableEvent<Int>()
  let tokens = (0..<observers(s)).map { _ in event.observe(makeHandler(sink)) }
  withExtendedLifetime(tokens) { measured_notify(event, reps) }
case (let s, "Baseline") where s.hasPrefix("notify-"):
  let event = BaselineEvent<Int>()
  for _ in 0..<observers(s) { _ = event.add(makeHandler(sink)) }
  measured_notify(event, reps)
case (let s, "OpenCombine") where s.hasPrefix("notify-"):
  let subject = PassthroughSubject<Int, Never>()
  let cancellables = (0..<observers(s)).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
  withExtendedLifetime(cancellables) { measured_notify(subject, reps) }
case (let s, "ObservableKit") where s.hasPrefix("set-"):
  let property = Property(0, observationTracking: !s.hasPrefix("set-noobs-"))
  let tokens = (0..<observers(s)).map { _ in property.observe(makeHandler(sink)) }
  withExtendedLifetime(tokens) { measured_set(property, reps) }
case (let s, "Baseline") where s.hasPrefix("set-"):
  let property = BaselineProperty(0)
  for _ in 0..<observers(s) { property.add(makeHandler(sink)) }
  measured_set(property, reps)
case (let s, "OpenCombine") where s.hasPrefix("set-"):
  let subject = CurrentValueSubject<Int, Never>(0)
  let cancellables = (0..<observers(s)).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
  withExtendedLifetime(cancellables) { measured_set(subject, reps) }
case ("sharednotify-1", "ObservableKit"):
  let event = SharedEvent<Int>()
  let token = observeOnMainActor(event, sink)
  withExtendedLifetime(token) { measured_sharedNotify(event, reps) }
case ("sharednotify-1", "Baseline"):
  let event = BaselineEvent<Int>()
  _ = event.add(makeHandler(sink))
  measured_notify(event, reps)
case ("sharednotify-1", "OpenCombine"):
  let subject = PassthroughSubject<Int, Never>()
  let cancellable = subject.sink(receiveValue: makeHandler(sink))
  withExtendedLifetime(cancellable) { measured_notify(subject, reps) }
case ("sharedchurn", "ObservableKit"):
  let event = SharedEvent<Int>()
  let tokens = (0..<10).map { _ in observeOnMainActor(event, sink) }
  withExtendedLifetime(tokens) { measured_sharedChurn(event, sink, reps) }
case ("sharedchurn", "Baseline"):
  let event = BaselineEvent<Int>()
  for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
  measured_churnB(event, sink, reps)
case ("sharedchurn", "OpenCombine"):
  let subject = PassthroughSubject<Int, Never>()
  let cancellables = (0..<10).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
  withExtendedLifetime(cancellables) { measured_churnB(subject, sink, reps) }
case ("churnA", "ObservableKit"): measured_churnA_ok(sink, reps)
case ("churnA", "Baseline"): measured_churnA_base(sink, reps)
case ("churnA", "OpenCombine"): measured_churnA_oc(sink, reps)
case ("churnB", "ObservableKit"):
  let event = ObservableEvent<Int>()
  let tokens = (0..<10).map { _ in event.observe(makeHandler(sink)) }
  withExtendedLifetime(tokens) { measured_churnB(event, sink, reps) }
case ("churnB", "Baseline"):
  let event = BaselineEvent<Int>()
  for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
  measured_churnB(event, sink, reps)
case ("churnB", "OpenCombine"):
  let subject = PassthroughSubject<Int, Never>()
  let cancellables = (0..<10).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
  withExtendedLifetime(cancellables) { measured_churnB(subject, sink, reps) }
case ("churnP", "ObservableKit"):
  let property = Property(1)
  let tokens = (0..<10).map { _ in property.observe(makeHandler(sink)) }
  withExtendedLifetime(tokens) { measured_churnP(property, sink, reps) }
case ("churnP", "Baseline"):
  let event = BaselineEvent<Int>()
  for _ in 0..<10 { _ = event.add(makeHandler(sink)) }
  measured_churnP(event, sink, reps)
case ("churnP", "OpenCombine"):
  let subject = CurrentValueSubject<Int, Never>(1)
  let cancellables = (0..<10).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
  withExtendedLifetime(cancellables) { measured_churnP(subject, sink, reps) }
case ("teardown", "ObservableKit"):
  let event = ObservableEvent<Int>()
  let tokens = (0..<reps).map { _ in event.observe(makeHandler(sink)) }
  measured_teardown(tokens, shuffledIndices(reps))
case ("teardown", "Baseline"):
  let event = BaselineEvent<Int>()
  let ids = (0..<reps).map { _ in event.add(makeHandler(sink)) }
  measured_teardown(event, ids, shuffledIndices(reps))
case ("teardown", "OpenCombine"):
  let subject = PassthroughSubject<Int, Never>()
  let cancellables = (0..<reps).map { _ in subject.sink(receiveValue: makeHandler(sink)) }
  measured_teardown(cancellables, shuffledIndices(reps))
case ("bag", "ObservableKit"):
  let event = ObservableEvent<Int>()
  for _ in 0..<(reps / 1_000) { measured_bag(event, sink, 1_000) }
case ("bag", "Baseline"):
  let event = BaselineEvent<Int>()
  for _ in 0..<(reps / 1_000) { measured_bag(event, sink, 1_000) }
case ("bag", "OpenCombine"):
  let subject = PassthroughSubject<Int, Never>()
  for _ in 0..<(reps / 1_000) { measured_bag(subject, sink, 1_000) }
case ("compat-10", "ObservableKit"):
  let subject = CompatSubject()
  let counters = (0..<10).map { _ in Counter(sink) }
  for counter in counters { subject.addObserver(counter) }
  withExtendedLifetime(counters) { measured_compat(subject, reps) }
case ("compat-10", "Baseline"):
  let subject = HandWrittenSubject()
  let counters = (0..<10).map { _ in Counter(sink) }
  for counter in counters { subject.add(counter) }
  withExtendedLifetime(counters) { measured_compat(subject, reps) }
case ("keyed-1000", "ObservableKit"):
  let subject = CompatKeyedSubject()
  let counters = (0..<1_000).map { _ in Counter(sink) }
  for (key, counter) in counters.enumerated() { subject.addKeyedObserver(key: key, counter) }
  withExtendedLifetime(counters) { measured_keyed(subject, 1_000, reps) }
case ("keyed-1000", "Baseline"):
  let subject = HandWrittenKeyedSubject()
  let counters = (0..<1_000).map { _ in Counter(sink) }
  for (key, counter) in counters.enumerated() { subject.add(key: key, counter) }
  withExtendedLifetime(counters) { measured_keyed(subject, 1_000, reps) }
case ("wrapset-1", "ObservableKit"):
  let model = WrappedModel50()
  let token = model.$p0.observe(makeHandler(sink))
  withExtendedLifetime(token) { measured_wrappedSet(model, reps) }
case ("wrapset-1", "StoredProperty"):
  let model = StoredModel50()
  let token = model.p0.observe(makeHandler(sink))
  withExtendedLifetime(token) { measured_wrappedSet(model, reps) }
case ("wrapset-1", "Baseline"), ("wrapset-noobs-1", "Baseline"):
  let model = BaselineModel50()
  observeP0(model, sink)
  measured_wrappedSet(model, reps)
case ("wrapset-noobs-1", "ObservableKit"):
  let model = WrappedModel50NoObservation()
  let token = model.$p0.observe(makeHandler(sink))
  withExtendedLifetime(token) { measured_wrappedSet(model, reps) }
case ("wrapset-noobs-1", "StoredProperty"):
  let model = StoredModel50NoObservation()
  let token = model.p0.observe(makeHandler(sink))
  withExtendedLifetime(token) { measured_wrappedSet(model, reps) }
case (let s, "ObservableKit") where s.hasPrefix("hub-") || s.hasPrefix("hubsender-"):
  let hub = EventHub()
  let message = HubMessage<Int>("benchmark.value")
  let sender: Sender? = s.hasPrefix("hubsender-") ? Sender() : nil
  let tokens = (0..<observers(s)).map { _ in hub.observe(message, from: sender, makeHandler(sink)) }
  withExtendedLifetime((tokens, sender)) { measured_post(hub, message, sender, reps) }
case (let s, "NotificationCenter") where s.hasPrefix("hub-") || s.hasPrefix("hubsender-"):
  let center = NotificationCenter()
  let name = Notification.Name("benchmark.value")
  let sender: Sender? = s.hasPrefix("hubsender-") ? Sender() : nil
  let tokens = (0..<observers(s)).map { _ in
    center.addObserver(forName: name, object: sender, queue: nil, using: makeNotificationHandler(sink))
  }
  withExtendedLifetime(sender) { measured_post(center, name, sender, reps) }
  for token in tokens { center.removeObserver(token) }
case (let s, "Baseline") where s.hasPrefix("hub-") || s.hasPrefix("hubsender-"):
  // The closure array of scenario 1; no sender filter.
  let event = BaselineEvent<Int>()
  for _ in 0..<observers(s) { _ = event.add(makeHandler(sink)) }
  measured_notify(event, reps)
case ("hubvoid-1", "ObservableKit"):
  let hub = EventHub()
  let message = HubMessage<Void>("benchmark.ping")
  let token = hub.observe(message, makeCounter(sink))
  withExtendedLifetime(token) { measured_post(hub, message, reps) }
case ("hubvoid-1", "NotificationCenter"):
  let center = NotificationCenter()
  let name = Notification.Name("benchmark.ping")
  let token = center.addObserver(forName: name, object: nil, queue: nil, using: makeNotificationCounter(sink))
  measured_postNoPayload(center, name, reps)
  center.removeObserver(token)
case ("hubvoid-1", "Baseline"):
  measured_notify(makeVoidBaseline(observers: 1, sink), reps)
case ("debounce", "ObservableKit"):
  // Scenario 12: values arriving at a debounced subscription whose task already runs.
  let event = SharedEvent<Int>()
  let token = event.debounce(for: .seconds(3600), isolation: DebounceTarget()).observeNonisolated(makeHandler(sink))
  event.notifyObservers(0)
  measured_notify(event, reps)
  token.dispose()
case ("debounce", "Baseline"):
  let event = BaselineEvent<Int>()
  let debouncer = HandDebouncer<Int>(duration: .seconds(3600), handler: makeHandler(sink))
  _ = event.add { debouncer.push($0) }
  event.notify(0)
  measured_notify(event, reps)
  debouncer.cancel()
case ("record", "ObservableKit"):
  // Scenario 13: every value recorded.
  let event = ObservableEvent<Int>()
  let recorder = event.record()
  measured_notify(event, reps)
  precondition(recorder.values.count == reps)
case ("record", "Baseline"):
  let event = BaselineEvent<Int>()
  let recorder = HandRecorder<Int>()
  _ = event.add { recorder.append($0) }
  measured_notify(event, reps)
  precondition(recorder.count == reps)
default:
  print("unknown scenario/contender: \(scenario) \(contender)")
  exit(2)
}
blackHole(sink.slot.pointee)
if arguments.contains("--print") { print(sink.slot.pointee) }
