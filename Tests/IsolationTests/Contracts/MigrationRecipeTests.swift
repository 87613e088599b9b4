import Foundation
import ObservableKit
import Testing
import TestSupport

/// The spellings and "not provided; write …" recipes of the migration guides
/// (MigratingFromCombine.md, MigratingFromRxSwift.md), written as app code writes them: in a
/// main-actor view model, Swift 6 mode. A guide row whose code stops compiling or working
/// fails here. The time operators are pinned by their own tests.
@Suite("Migration guide recipes")
@MainActor
struct MigrationRecipeTests {
  @Test("Guide spellings: subjects, sink, store(in:), the operators the library provides")
  func spellings() {
    let bag = DisposeBag()
    var heard: [String] = []
    let passthrough = ObservableEvent<Int>()  // PassthroughSubject, PublishSubject, PublishRelay
    let current = Property(0)  // CurrentValueSubject, BehaviorSubject, BehaviorRelay, @Published
    let tapped = ObservableEvent<Void>()
    passthrough.observe { heard.append("sink \($0)") }.disposed(by: bag)
    passthrough.filter { $0 > 1 }.map { "\($0)" }.compactMap { Int($0) }.removeDuplicates()
      .skip(1).take(1).observe { heard.append("chain \($0)") }.disposed(by: bag)
    passthrough.filter { $0 == 3 }.once().observe { heard.append("first(where:) \($0)") }.disposed(by: bag)
    passthrough.merge(with: tapped.map { -1 }).observe { heard.append("merge \($0)") }.disposed(by: bag)
    [passthrough, passthrough].merge().observe { _ in }.disposed(by: bag)
    passthrough.scan(0, +).observe { heard.append("scan \($0)") }.disposed(by: bag)
    passthrough.pairwise().observe { heard.append("pairwise \($0)-\($1)") }.disposed(by: bag)
    tapped.withLatestFrom(current).observe { heard.append("withLatestFrom \($0)") }.disposed(by: bag)
    current.prepend(-1).observe { heard.append("startWith \($0)") }.disposed(by: bag)
    current.combineLatest(current.map { $0 * 10 }).observe { heard.append("combineLatest \($0),\($1)") }
      .disposed(by: bag)
    [current, current].combineLatest().observe { _ in }.disposed(by: bag)
    passthrough.merge(with: passthrough, passthrough).observe { _ in }.disposed(by: bag)
    current.combineLatest(current, current).observe { heard.append("combineLatest3 \($0),\($1),\($2)") }
      .disposed(by: bag)
    current.observeChanges { heard.append("dropFirst \($0)") }.disposed(by: bag)
    let erased: ReadOnlyEvent<Int> = passthrough.readOnly  // eraseToAnyPublisher, asObservable
    _ = erased
    for value in [2, 3, 3] { passthrough.notifyObservers(value) }
    current.value = 1
    tapped.notifyObservers()
    #expect(heard.contains("chain 3"))
    #expect(heard.contains("first(where:) 3"))
    #expect(heard.contains("scan 8"))
    #expect(heard.contains("pairwise 3-3"))
    #expect(heard.contains("withLatestFrom 1"))
    #expect(heard.contains("merge -1"))
    #expect(heard.prefix(3).contains("startWith -1"))
    #expect(heard.contains("combineLatest 1,10"))
    #expect(heard.contains("dropFirst 1"))
    #expect(heard.contains("combineLatest3 1,1,1"))
  }

  @Test("Recipe: switchToLatest / flatMapLatest, and flatMap")
  func switchToLatest() {
    let bag = DisposeBag()
    let rooms = ObservableEvent<ObservableEvent<String>>()
    var messages: [String] = []
    // switchToLatest: dispose the previous inner subscription when a new inner source comes.
    var current: (any Disposable)?
    rooms.observe { room in
      current?.dispose()
      current = room.observe { messages.append($0) }
    }.disposed(by: bag)
    // flatMap: keep every inner subscription, in a bag.
    var all: [String] = []
    rooms.observe { room in room.observe { all.append($0) }.disposed(by: bag) }.disposed(by: bag)

    let first = ObservableEvent<String>()
    let second = ObservableEvent<String>()
    rooms.notifyObservers(first)
    first.notifyObservers("a")
    rooms.notifyObservers(second)
    first.notifyObservers("b")
    second.notifyObservers("c")
    #expect(messages == ["a", "c"])
    #expect(all == ["a", "b", "c"])
    current?.dispose()
  }

  @Test("Operators: flatMapLatest / switchToLatest, take(until:) / takeUntil / prefix(untilOutputFrom:), share(replay:) as the guides write them")
  func streamOperators() {
    final class Room {
      let messages = ObservableEvent<String>()
    }
    let bag = DisposeBag()
    let selectedRoom = Property(Room())
    var shown: [String] = []
    selectedRoom.flatMapLatest { $0.messages }.observe { shown.append($0) }.disposed(by: bag)
    let first = selectedRoom.value
    first.messages.notifyObservers("a")
    let second = Room()
    selectedRoom.value = second
    first.messages.notifyObservers("b")
    second.messages.notifyObservers("c")
    #expect(shown == ["a", "c"])

    let ticks = ObservableEvent<Int>()
    let screenClosed = ObservableEvent<Void>()
    var ticked: [Int] = []
    ticks.take(until: screenClosed).observe { ticked.append($0) }.disposed(by: bag)
    ticks.notifyObservers(1)
    screenClosed.notifyObservers()
    ticks.notifyObservers(2)
    #expect(ticked == [1])

    let recent = ObservableEvent<String>(replay: 3)
    for message in ["m1", "m2", "m3", "m4"] { recent.notifyObservers(message) }
    var late: [String] = []
    recent.observe { late.append($0) }.disposed(by: bag)
    #expect(late == ["m2", "m3", "m4"])
  }

  @Test("Recipe: zip")
  func zip() {
    let bag = DisposeBag()
    let names = ObservableEvent<String>()
    let scores = ObservableEvent<Int>()
    var pairs: [String] = []
    // zip: queue each side; pair them in order.
    var pendingNames: [String] = []
    var pendingScores: [Int] = []
    let pairUp = {
      while !pendingNames.isEmpty && !pendingScores.isEmpty {
        pairs.append("\(pendingNames.removeFirst()) \(pendingScores.removeFirst())")
      }
    }
    names.observe { pendingNames.append($0); pairUp() }.disposed(by: bag)
    scores.observe { pendingScores.append($0); pairUp() }.disposed(by: bag)
    names.notifyObservers("Ada")
    names.notifyObservers("Grace")
    scores.notifyObservers(1)
    scores.notifyObservers(2)
    #expect(pairs == ["Ada 1", "Grace 2"])
  }

  @Test("Recipe: handleEvents / do(onNext:), collect(n) / buffer(count:), reduce, share, bind(to:), take(until:)")
  func smallRecipes() {
    let bag = DisposeBag()
    let values = ObservableEvent<Int>()
    var log: [String] = []
    // handleEvents(receiveOutput:) / do(onNext:): a side effect in the chain.
    values.map { value in log.append("saw \(value)"); return value }.observe { _ in }.disposed(by: bag)
    // collect(2) / buffer(timeSpan:count: 2): groups of n.
    values.scan([Int]()) { group, value in (group.count == 2 ? [] : group) + [value] }
      .filter { $0.count == 2 }
      .observe { log.append("group \($0)") }.disposed(by: bag)
    // reduce: the running result of scan; its latest value is the result so far.
    let total = Property(0)
    values.scan(0, +).observe { total.value = $0 }.disposed(by: bag)
    // share(replay: 1): keep the latest value of a computed chain in a property.
    let latestSquare = Property(0)
    values.map { $0 * $0 }.observe { latestSquare.value = $0 }.disposed(by: bag)
    // bind(to:) / assign(to:): set a property from a source.
    let mirror = Property(0)
    values.observe { mirror.value = $0 }.disposed(by: bag)
    // take(until: stop): dispose the subscription on the other source's first value.
    let stop = ObservableEvent<Void>()
    var untilStop: [Int] = []
    let token = values.observe { untilStop.append($0) }
    stop.once().observe { _ in token.dispose() }.disposed(by: bag)

    for value in 1...3 { values.notifyObservers(value) }
    stop.notifyObservers()
    values.notifyObservers(4)
    #expect(log.filter { $0.hasPrefix("saw") }.count == 4)
    #expect(log.filter { $0.hasPrefix("group") } == ["group [1, 2]", "group [3, 4]"])
    #expect(total.value == 10)
    #expect(latestSquare.value == 16)
    #expect(mirror.value == 4)
    #expect(untilStop == [1, 2, 3])
  }

  @Test("Spellings: @AppStorage, two BehaviorRelays bound both ways, bind(to:) from a read-only property")
  func persistedAndBound() {
    let suite = "okit.migration.\(UInt64.random(in: 0...UInt64.max))"
    let defaults = UserDefaults(suiteName: suite)!
    defer { defaults.removePersistentDomain(forName: suite) }
    // @AppStorage("count") var count = 0  →  @Property(storage: .userDefaults("count")) var count = 0
    final class Counter {
      @Property var count: Int
      init(defaults: UserDefaults) { _count = Property(wrappedValue: 0, storage: .userDefaults("count", in: defaults)) }
    }
    let counter = Counter(defaults: defaults)
    counter.count += 1
    #expect(defaults.integer(forKey: "count") == 1)
    #expect(Counter(defaults: defaults).count == 1)
    // Two BehaviorRelays kept equal both ways  →  a.bind(to: b)
    let a = Property("a"), b = Property("b")
    let binding = a.bind(to: b)
    b.value = "c"
    #expect(a.value == "c")
    binding.dispose()
    // source.bind(to: relay), from a read-only property  →  readOnly.bind(to: property)
    let total = Property(2), label = Property("")
    let oneWay = total.map { "\($0)" }.bind(to: label)
    total.value = 3
    #expect(label.value == "3")
    oneWay.dispose()
  }

  @Test("Recipe: Observable.create, Just, timeout")
  @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, *)
  func createJustTimeout() async {
    // Observable.create / a custom publisher: ReadOnlyEvent adapts any callback mechanism.
    let callbacks = ReadOnlyEvent<Int> { handler in
      handler(1)
      handler(2)
      return DisposeBag()  // what ends the subscription
    }
    var heard: [Int] = []
    let token = callbacks.observe { heard.append($0) }
    #expect(heard == [1, 2])
    token.dispose()
    // Just(v) / Observable.just(v): a property replays its value to each observer.
    let just = Property(7).readOnly
    let justToken = just.observe { heard.append($0) }
    #expect(heard == [1, 2, 7])
    justToken.dispose()
    // timeout: start a timer task, cancel it on the first value.
    let response = ObservableEvent<String>()
    var timedOut = false
    let timer = Task { @MainActor in
      try await Task.sleep(for: .seconds(60))
      timedOut = true
    }
    let responseToken = response.once().observe { _ in timer.cancel() }
    response.notifyObservers("ok")
    _ = await timer.result
    #expect(!timedOut)
    responseToken.dispose()
    // interval: a task that ticks on a clock; cancelling it stops the ticks.
    let ticks = SharedEvent<Int>()
    let ticker = Task {
      var count = 0
      while (try? await Task.sleep(for: .seconds(1))) != nil {
        count += 1
        ticks.notifyObservers(count)
      }
    }
    let tickToken = ticks.observe { heard.append($0) }
    ticker.cancel()
    await ticker.value
    #expect(heard == [1, 2, 7])
    tickToken.dispose()
  }
}
