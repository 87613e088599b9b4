import ObservableKit
import Testing
import TestSupport

/// The shared family at parity with the confined one: skip, merge, the property operators
/// (which keep a current value), combineLatest, and the compositions. Swift 6 mode.
@Suite("Shared compositions")
struct SharedCompositionTests {
  @Test("Contract: skip and merge(with:) on the shared family count per subscription and end every upstream subscription")
  func skipAndMerge() {
    let first = SharedEvent<Int>()
    let second = SharedEvent<Int>()
    let skipped = ValueLog<Int>()
    let merged = ValueLog<Int>()
    let skipToken = first.skip(2).observe { skipped.record($0) }
    let mergeToken = first.merge(with: second).observe { merged.record($0) }
    for value in 1...4 { first.notifyObservers(value) }
    second.notifyObservers(10)
    #expect(skipped.values == [3, 4])
    #expect(merged.values == [1, 2, 3, 4, 10])
    skipToken.dispose()
    mergeToken.dispose()
    #expect(!first.isObserved && !second.isObserved)

    let many = [first, second, SharedEvent<Int>()]
    let fromMany = ValueLog<Int>()
    let manyToken = many.merge().observe { fromMany.record($0) }
    many[2].notifyObservers(3)
    many[0].notifyObservers(1)
    #expect(fromMany.values == [3, 1])
    manyToken.dispose()
    #expect(many.allSatisfy { !$0.isObserved })
  }

  @Test("Contract: map and removeDuplicates on a SharedProperty return a SharedReadOnlyProperty that has a value, replays it and offers observeChanges")
  func propertyOperatorsKeepAValue() {
    let celsius = SharedProperty(20)
    let fahrenheit: SharedReadOnlyProperty<Int> = celsius.map { $0 * 9 / 5 + 32 }
    #expect(fahrenheit.value == 68)
    let heard = ValueLog<Int>()
    let changes = ValueLog<Int>()
    let token = fahrenheit.observe { heard.record($0) }
    let changesToken = fahrenheit.observeChanges { changes.record($0) }
    celsius.value = 100
    #expect(heard.values == [68, 212])
    #expect(changes.values == [212])
    #expect(fahrenheit.value == 212)
    token.dispose()
    changesToken.dispose()

    let distinct: SharedReadOnlyProperty<Int> = celsius.removeDuplicates()
    let distinctHeard = ValueLog<Int>()
    let distinctChanges = ValueLog<Int>()
    let distinctToken = distinct.observe { distinctHeard.record($0) }
    let distinctChangesToken = distinct.changes.observe { distinctChanges.record($0) }
    for value in [100, 1, 1, 100] { celsius.value = value }
    #expect(distinctHeard.values == [100, 1, 100])
    #expect(distinctChanges.values == [1, 100])
    distinctToken.dispose()
    distinctChangesToken.dispose()
    #expect(!celsius.isObserved)

    let view: SharedReadOnlyProperty<Int> = celsius.readOnly
    #expect(view.value == 100)
  }

  @Test("Contract: combineLatest on the shared family pairs current values, then updates on either side")
  func combineLatest() {
    let name = SharedProperty("Ada")
    let score = SharedProperty(1)
    let pair = name.combineLatest(score)
    #expect(pair.value == ("Ada", 1))
    let heard = ValueLog<String>()
    let changes = ValueLog<String>()
    let token = pair.observe { heard.record("\($0) \($1)") }
    let changesToken = pair.observeChanges { changes.record("\($0) \($1)") }
    score.value = 2
    name.value = "Grace"
    #expect(heard.values == ["Ada 1", "Ada 2", "Grace 2"])
    #expect(changes.values == ["Ada 2", "Grace 2"])
    token.dispose()
    changesToken.dispose()
    #expect(!name.isObserved && !score.isObserved)

    let triple = name.combineLatest(score, SharedProperty(true))
    #expect(triple.value == ("Grace", 2, true))

    let flags = [SharedProperty(true), SharedProperty(false)]
    let all = ValueLog<[Bool]>()
    let allToken = flags.combineLatest().observe { all.record($0) }
    flags[1].value = true
    #expect(all.values == [[true, false], [true, true]])
    allToken.dispose()
  }

  @Test("Contract: a shared combineLatest handler never overlaps itself and ends on the final values")
  func combineLatestConcurrent() {
    let properties = (0..<3).map { _ in SharedProperty(0) }
    let inside = Tally()
    let overlaps = Tally()
    let wentBack = Tally()
    let last = Guarded([0, 0, 0])
    let token = properties.combineLatest().observeNonisolated { values in
      inside.increment()
      if inside.value > 1 { overlaps.increment() }
      if zip(values, last.value).contains(where: { $0 < $1 }) { wentBack.increment() }
      last.value = values
      inside.increment(by: -1)
    }
    raceSharing(properties, threads: 3) { properties, index in
      for round in 1...2_000 { properties[index].value = round }
    }
    #expect(overlaps.value == 0)
    #expect(wentBack.value == 0)
    #expect(last.value == [2_000, 2_000, 2_000])
    token.dispose()
  }

  @Test("Contract: a shared combineLatest's observeChanges never keeps a value that a set racing with the subscription replaced")
  func combineLatestChangesRacingSet() {
    let other = SharedProperty(0)
    let pairs = ValueLog<String>()
    let pairToken = Self.racyProperty().combineLatest(other)
      .observeChangesNonisolated { pairs.record("\($0.0) \($0.1)") }
    let arrays = ValueLog<[Int]>()
    let arrayToken = [Self.racyProperty(), other.readOnly].combineLatest()
      .observeChangesNonisolated { arrays.record($0) }
    other.value = 2
    #expect(pairs.values == ["1 2"])
    #expect(arrays.values == [[1, 2]])
    pairToken.dispose()
    arrayToken.dispose()
  }

  /// A property holding 0 that another thread sets to 1 while a subscription to it is being
  /// made: the set lands at the first thing the subscription does (right after a read of
  /// the value, or right before a subscription), so the interleaving happens on every run.
  private static func racyProperty() -> SharedReadOnlyProperty<Int> {
    let base = SharedProperty(0)
    let raced = Guarded(false)
    let raceOnce: @Sendable () -> Void = {
      let first = raced.withLock { done in
        defer { done = true }
        return !done
      }
      if first { base.value = 1 }
    }
    return SharedReadOnlyProperty(
      value: {
        let current = base.value
        raceOnce()
        return current
      },
      observeNonisolated: { handler in
        raceOnce()
        return base.observeNonisolated(handler)
      },
      observeChangesNonisolated: { handler in
        raceOnce()
        return base.observeChangesNonisolated(handler)
      }
    )
  }

  @Test("Contract: shared scan folds each value exactly once, also from several threads")
  func scan() {
    let event = SharedEvent<Int>()
    let totals = ValueLog<Int>()
    let token = event.scan(0) { $0 + $1 }.observe { totals.record($0) }
    event.notifyObservers(1)
    event.notifyObservers(2)
    #expect(totals.values == [1, 3])
    token.dispose()

    let results = ValueLog<Int>()
    let concurrentToken = event.scan(0) { $0 + $1 }.observeNonisolated { results.record($0) }
    raceSharing(event, threads: 4) { event, _ in for _ in 0..<500 { event.notifyObservers(1) } }
    #expect(results.values.sorted() == Array(1...2_000))
    concurrentToken.dispose()
  }

  @Test("Contract: shared withLatestFrom, prepend and pairwise follow the confined rules")
  func withLatestFromPrependPairwise() {
    let tapped = SharedEvent<Int>()
    let query = SharedProperty("")
    let selection = SharedEvent<String>()
    let fromProperty = ValueLog<String>()
    let fromEvent = ValueLog<String>()
    let bag = DisposeBag()
    tapped.withLatestFrom(query).observe { fromProperty.record($0) }.disposed(by: bag)
    tapped.withLatestFrom(selection) { "\($1)\($0)" }.observe { fromEvent.record($0) }.disposed(by: bag)
    tapped.notifyObservers(1)
    query.value = "q"
    selection.notifyObservers("s")
    tapped.notifyObservers(2)
    #expect(fromProperty.values == ["", "q"])
    #expect(fromEvent.values == ["s2"], "1 came before the other event's first value")
    bag.dispose()
    #expect(!tapped.isObserved && !selection.isObserved && !query.isObserved)

    let volume = SharedProperty(5)
    let heard = ValueLog<String>()
    let prependToken = volume.prepend(0).observe { heard.record("\($0)") }
    let pairToken = volume.pairwise().observe { heard.record("\($0)→\($1)") }
    #expect(heard.values == ["0", "5"], "the prepended value, then the replay, before observe returns")
    volume.value = 7
    #expect(heard.values == ["0", "5", "7", "5→7"])
    prependToken.dispose()
    pairToken.dispose()
    #expect(!volume.isObserved)
  }

  @Test("Contract: a shared source's values(bufferingPolicy:onDrop:) reports each value the buffer drops")
  func valuesOnDrop() async {
    let property = SharedProperty(0)
    let dropped = ValueLog<Int>()
    var iterator = property.values(bufferingPolicy: .bufferingNewest(1)) { dropped.record($0) }
      .makeAsyncIterator()
    #expect(await iterator.next() == 0)
    for value in 1...3 { property.value = value }
    #expect(dropped.values == [1, 2])
    #expect(await iterator.next() == 3)
  }

  @Test("Contract: a shared composition's handler registered in an actor runs isolated to it, in order")
  func actorHandler() async {
    actor Totals {
      var seen: [Int] = []
      var token: (any Disposable)?
      func start(_ event: SharedEvent<Int>) {
        token = event.skip(1).scan(0) { $0 + $1 }.observe { total in
          self.assertIsolated()
          self.seen.append(total)
        }
      }
      func count() -> Int { seen.count }
      func stop() { token?.dispose() }
    }
    let event = SharedEvent<Int>()
    let totals = Totals()
    await totals.start(event)
    for value in 1...5 { event.notifyObservers(value) }
    for _ in 0..<100_000 where await totals.count() < 4 { await Task.yield() }
    #expect(await totals.seen == [2, 5, 9, 14])
    await totals.stop()
    #expect(!event.isObserved)
  }
}

/// Main-actor models that use the shared family's compositions: their handlers run at once on
/// the main thread.
@Suite("Shared compositions on the main actor")
@MainActor
struct SharedCompositionMainActorTests {
  @MainActor
  final class FormModel {
    var canSubmit = false
    var totals: [Int] = []
    var log: [String] = []
    let bag = DisposeBag()

    init(name: SharedProperty<String>, agreed: SharedProperty<Bool>, taps: SharedEvent<Int>, keys: SharedEvent<Int>) {
      name.combineLatest(agreed).map { !$0.isEmpty && $1 }
        .observe { [weak self] in self?.canSubmit = $0 }.disposed(by: bag)
      taps.merge(with: keys).skip(1).scan(0) { $0 + $1 }
        .observe { [weak self] in self?.totals.append($0) }.disposed(by: bag)
      taps.withLatestFrom(name).observe { [weak self] in self?.log.append($0) }.disposed(by: bag)
    }
  }

  @Test("Contract: main-actor handlers of shared skip, merge, combineLatest and scan run before the main-thread notification returns")
  func mainActorChains() {
    let name = SharedProperty("")
    let agreed = SharedProperty(false)
    let taps = SharedEvent<Int>()
    let keys = SharedEvent<Int>()
    let model = FormModel(name: name, agreed: agreed, taps: taps, keys: keys)
    #expect(model.canSubmit == false, "the replay ran inside init")
    name.value = "Ada"
    agreed.value = true
    #expect(model.canSubmit)
    taps.notifyObservers(1)
    keys.notifyObservers(2)
    taps.notifyObservers(3)
    #expect(model.totals == [2, 5])
    #expect(model.log == ["Ada", "Ada"])
    model.bag.dispose()
    #expect(!name.isObserved && !agreed.isObserved && !taps.isObserved && !keys.isObserved)
  }
}
