import ObservableKit

// An actor owns its subscriptions: the handler runs isolated to the actor and may change its
// state; the actor is held weakly, and may subscribe in its init.

nonisolated enum ScoreMessages {
  static let bonus = HubMessage<Int>("score.bonus")
}

actor ScoreKeeper {
  var total = 0
  var lines: [String] = []
  private var waiter: (count: Int, resume: CheckedContinuation<Void, Never>)?
  private let gone: AsyncStream<Void>.Continuation

  init(points: SharedEvent<Int>, level: SharedProperty<Int>, hub: SharedEventHub, gone: AsyncStream<Void>.Continuation) {
    self.gone = gone
    points.observe(with: self) { keeper, value in
      keeper.total += value
      keeper.log("points \(value)")
    }
    level.subscribe(self) { keeper, newValue, oldValue in keeper.log("level \(oldValue) -> \(newValue)") }
    hub.observe(ScoreMessages.bonus, with: self) { keeper, bonus in
      keeper.total += bonus
      keeper.log("bonus \(bonus)")
    }
  }

  deinit {
    gone.yield()
  }

  private func log(_ line: String) {
    lines.append(line)
    if let waiter, lines.count >= waiter.count {
      self.waiter = nil
      waiter.resume.resume()
    }
  }

  /// Returns once `count` lines were logged.
  func waitForLines(_ count: Int) async {
    if lines.count >= count { return }
    await withCheckedContinuation { waiter = (count, $0) }
  }
}

@MainActor func actorOwnsSubscriptions() async {
  let pointsEvent = SharedEvent<Int>()
  let level = SharedProperty(1)
  let hub = SharedEventHub()
  let (keeperGone, gone) = AsyncStream<Void>.makeStream()
  var keeper: ScoreKeeper? = ScoreKeeper(points: pointsEvent, level: level, hub: hub, gone: gone)
  pointsEvent.notifyObservers(10)
  level.value = 2
  hub.post(ScoreMessages.bonus, 5)
  pointsEvent.notifyObservers(1)
  await keeper?.waitForLines(4)
  // Each subscription delivers in order; the three of them are three queues into the actor.
  let lines = await keeper?.lines ?? []
  let points = lines.filter { $0.hasPrefix("points") }
  print("actor owner: total \(await keeper?.total ?? -1), \(points), \(lines.filter { !points.contains($0) }.sorted())")
  keeper = nil  // held weakly: it deinitializes once the last delivery has returned
  for await _ in keeperGone { break }
  pointsEvent.notifyObservers(100)
  print("actor owner gone: points observers \(pointsEvent.observerCount)")  // the value ended it
}
