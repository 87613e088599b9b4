import Foundation
import Testing
import TestSupport

@testable import ObservableKit

/// Hubs under many threads, with exact counts. CI runs these under ThreadSanitizer and
/// AddressSanitizer; `race` turns a deadlock into a failure.
@Suite("Event hub stress", .serialized)
struct EventHubStressTests {
  static let threads = 8
  static let rounds = 3_000

  /// A post's payload: which message it was posted as, which thread posted it, and that
  /// thread's running count, so a receiver can tell a foreign, duplicated or reordered post.
  static func payload(message: Int, thread: Int, sequence: Int) -> Int {
    (message << 40) | (thread << 24) | sequence
  }

  static func message(of payload: Int) -> Int { payload >> 40 }
  static func thread(of payload: Int) -> Int { (payload >> 24) & 0xFFFF }
  static func sequence(of payload: Int) -> Int { payload & 0xFF_FFFF }

  /// What one subscription that comes and goes heard.
  final class Churned: @unchecked Sendable {
    // Every stored property is only touched under `lock`.
    private let lock = NSLock()
    private var seen = Set<Int>()
    private var duplicates = 0
    private var foreign = 0
    private var disposed = false
    private var late = 0
    let message: Int

    init(message: Int) { self.message = message }

    func hear(_ payload: Int) {
      lock.lock()
      defer { lock.unlock() }
      if !seen.insert(payload).inserted { duplicates += 1 }
      if EventHubStressTests.message(of: payload) != message { foreign += 1 }
      if disposed { late += 1 }
    }

    /// Called once `dispose()` has returned.
    func markDisposed() {
      lock.lock()
      disposed = true
      lock.unlock()
    }

    func heard(_ payload: Int) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      return seen.contains(payload)
    }

    var report: (duplicates: Int, foreign: Int, late: Int) {
      lock.lock()
      defer { lock.unlock() }
      return (duplicates, foreign, late)
    }
  }

  /// A subscription that lives through the whole race and checks each delivery.
  final class Stable: @unchecked Sendable {
    // Every stored property is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    private var foreign = 0
    private var lastSequence: [Int: Int] = [:]
    private var reordered = 0
    private var inside = 0
    private var overlaps = 0
    let message: Int

    init(message: Int) { self.message = message }

    /// Records a delivery; `checkOrder` for subscriptions whose calls keep the posts' order.
    func hear(_ payload: Int, checkOrder: Bool) {
      lock.lock()
      inside += 1
      if inside > 1 { overlaps += 1 }
      lock.unlock()
      // Another call of this subscription entering here would be an overlap.
      lock.lock()
      count += 1
      if EventHubStressTests.message(of: payload) != message { foreign += 1 }
      let thread = EventHubStressTests.thread(of: payload)
      let sequence = EventHubStressTests.sequence(of: payload)
      if checkOrder, let last = lastSequence[thread], last >= sequence { reordered += 1 }
      lastSequence[thread] = sequence
      lock.unlock()
      lock.lock()
      inside -= 1
      lock.unlock()
    }

    var report: (count: Int, foreign: Int, reordered: Int, overlaps: Int) {
      lock.lock()
      defer { lock.unlock() }
      return (count, foreign, reordered, overlaps)
    }
  }

  @Test("Contract: SharedEventHub posts racing observes and disposals of the same message and of others; each subscription hears each post at most once, never after dispose() returned but for a call already taken")
  func sharedPostsRaceObservesAndDisposes() {
    let hub = SharedEventHub()
    // Message 0 and message 1 share a name and differ in payload type; message 2 is another name.
    let score = HubMessage<Int>("score")
    let scoreText = HubMessage<String>("score")
    let other = HubMessage<Int>("other")
    // Messages nobody observes before the race: their channels are made while others post.
    let fresh = (0..<8).map { HubMessage<Int>("fresh\($0)") }

    let stableScore = Stable(message: 0)
    let stableScoreIsolated = Stable(message: 0)
    let stableOther = Stable(message: 2)
    let texts = Tally()
    let foreignTexts = Tally()
    let stableTokens = [
      hub.observeNonisolated(score) { stableScore.hear($0, checkOrder: false) },
      // Registered from nonisolated code: calls never overlap and keep the posts' order.
      hub.observe(score) { stableScoreIsolated.hear($0, checkOrder: true) },
      hub.observe(other) { stableOther.hear($0, checkOrder: true) },
      hub.observeNonisolated(scoreText) { text in
        texts.increment()
        if !text.hasPrefix("text") { foreignTexts.increment() }
      },
    ]

    let posts = Tally()
    let churnedNonisolated = Guarded<[Churned]>([])
    let churnedIsolated = Guarded<[Churned]>([])
    let ownPostMissed = Tally()
    raceSharing(hub, threads: Self.threads) { hub, thread in
      var sequence = 0
      var sent = 0
      var nonisolated: [Churned] = []
      var isolated: [Churned] = []
      for round in 0..<Self.rounds {
        sequence += 1
        switch (round + thread) % 3 {
        case 0:
          hub.post(score, Self.payload(message: 0, thread: thread, sequence: sequence))
          hub.post(other, Self.payload(message: 2, thread: thread, sequence: sequence))
          hub.post(scoreText, "text \(thread) \(sequence)")
          hub.post(fresh[round % fresh.count], Self.payload(message: 10 + round % fresh.count, thread: thread, sequence: sequence))
          sent += 1
        case 1:
          // The fast path: a dispose on this thread stops this thread's passes at once.
          let churned = Churned(message: 0)
          let token = hub.observeNonisolated(score) { churned.hear($0) }
          let own = Self.payload(message: 0, thread: thread, sequence: sequence)
          hub.post(score, own)
          sent += 1
          if !churned.heard(own) { ownPostMissed.increment() }
          token.dispose()
          churned.markDisposed()
          nonisolated.append(churned)
        default:
          // A handler with the caller's isolation (nonisolated here), on the same message or
          // on a message whose channel may not exist yet.
          let index = round % fresh.count
          let churned = Churned(message: round % 2 == 0 ? 0 : 10 + index)
          let token = round % 2 == 0
            ? hub.observe(score) { churned.hear($0) }
            : hub.observe(fresh[index]) { churned.hear($0) }
          if round % 4 == 0 {
            hub.post(score, Self.payload(message: 0, thread: thread, sequence: sequence))
            sent += 1
          }
          token.dispose()
          churned.markDisposed()
          isolated.append(churned)
        }
      }
      posts.increment(by: sent)
      churnedNonisolated.withLock { $0.append(contentsOf: nonisolated) }
      churnedIsolated.withLock { $0.append(contentsOf: isolated) }
    }

    let scorePosts = posts.value
    let otherPosts = (0..<Self.threads).reduce(0) { total, thread in
      total + (0..<Self.rounds).filter { ($0 + thread) % 3 == 0 }.count
    }
    let score0 = stableScore.report
    let score1 = stableScoreIsolated.report
    let other2 = stableOther.report
    #expect(score0.count == scorePosts, "the fast path heard every post of its message once")
    #expect(score1.count == scorePosts, "the isolated handler heard every post of its message once")
    #expect(other2.count == otherPosts)
    #expect(texts.value == otherPosts)
    #expect(score0.foreign == 0 && score1.foreign == 0 && other2.foreign == 0 && foreignTexts.value == 0,
            "no observer heard another message's post")
    #expect(score1.reordered == 0 && other2.reordered == 0, "each thread's posts kept their order")
    #expect(score1.overlaps == 0 && other2.overlaps == 0, "one subscription's calls never overlap")
    #expect(ownPostMissed.value == 0, "a fast-path handler hears a post of its own thread before post returns")

    for churned in churnedNonisolated.value {
      let report = churned.report
      #expect(report.duplicates == 0, "a post was delivered twice to one subscription")
      #expect(report.foreign == 0)
      // A pass that another thread began before dispose() returned may still call the
      // handler: at most one such pass per other thread.
      #expect(report.late <= Self.threads - 1)
    }
    let isolated = churnedIsolated.value
    for churned in isolated {
      let report = churned.report
      #expect(report.duplicates == 0, "a post was delivered twice to one subscription")
      #expect(report.foreign == 0)
      // Calls of one subscription never overlap: at most the one call whose value a drain
      // on another thread took before dispose() returned.
      #expect(report.late <= 1, "a value was taken for a call after dispose() returned")
    }
    #expect(churnedNonisolated.value.count + isolated.count == Self.threads * Self.rounds * 2 / 3)

    #expect(hub.observerCount(of: score) == 2, "every churned subscription ended")
    #expect(hub.observerCount(of: other) == 1)
    for message in fresh { #expect(hub.observerCount(of: message) == 0) }
    stableTokens.forEach { $0.dispose() }
    #expect(hub.observerCount(of: score) == 0 && hub.observerCount(of: other) == 0 && hub.observerCount(of: scoreText) == 0)
  }

  @Test("Contract: SharedEventHub: many threads make a message's first observers at once; all share one channel")
  func sharedFirstObserversRace() {
    let hub = SharedEventHub()
    for round in 0..<60 {
      let message = HubMessage<Int>("first\(round)")
      let heard = (0..<Self.threads).map { _ in Tally() }
      let tokens = Guarded<[any Disposable]>([])
      raceSharing(hub, threads: Self.threads) { hub, thread in
        let token = thread % 2 == 0
          ? hub.observeNonisolated(message) { heard[thread].increment(by: $0) }
          : hub.observe(message) { heard[thread].increment(by: $0) }
        tokens.withLock { $0.append(token) }
        hub.post(message, 0)  // racing the other threads' observes: reaches whoever is registered
      }
      #expect(hub.observerCount(of: message) == Self.threads, "no observer was lost to a second channel")
      hub.post(message, 1)
      for (thread, tally) in heard.enumerated() { #expect(tally.value == 1, "thread \(thread)'s observer") }
      tokens.value.forEach { $0.dispose() }
      #expect(hub.observerCount(of: message) == 0)
    }
    #expect(hub.hub.channels.table.withLock { $0.count } == 60)
  }

  @Test("Contract: SharedEventHub: a dispose() on another thread while posts race; nothing is taken after it returns")
  func sharedDisposeFromAnotherThread() {
    let hub = SharedEventHub()
    let message = HubMessage<Int>("disposed")
    let violations = Tally()
    let heardTotal = Tally()
    for _ in 0..<200 {
      let disposed = Guarded(false)
      let lateCalls = Tally()
      let token = hub.observe(message) { _ in
        heardTotal.increment()
        if disposed.value { lateCalls.increment() }
      }
      raceSharing((hub, token), threads: 3) { shared, thread in
        let (hub, token) = shared
        if thread == 0 {
          token.dispose()
          disposed.value = true
        } else {
          for value in 0..<20 { hub.post(message, value) }
        }
      }
      // Calls never overlap, so at most one call, taken before dispose() returned, ran late.
      if lateCalls.value > 1 { violations.increment() }
      hub.post(message, -1)
      if lateCalls.value > 1 { violations.increment() }
    }
    #expect(violations.value == 0)
    #expect(hub.observerCount(of: message) == 0)
    _ = heardTotal.value
  }

  @Test("Contract: an EventHub shared across threads anyway: no crash, consistent counts")
  func confinedHubSharedAnyway() {
    final class Sender {}
    let hub = EventHub()
    let score = HubMessage<Int>("score")
    let other = HubMessage<Int>("other")
    let senders = (0..<Self.threads).map { _ in Sender() }
    let all = Tally()
    let fromFirst = Tally()
    let others = Tally()
    let stableTokens = [
      hub.observe(score) { all.increment(by: $0) },
      hub.observe(score, from: senders[0]) { fromFirst.increment(by: $0) },
      hub.observe(other) { others.increment(by: $0) },
    ]
    let posts = Tally()
    let postsFromFirst = Tally()
    let lateCalls = Tally()
    let disposals = Tally()
    raceSharing((hub, senders), threads: Self.threads) { shared, thread in
      let (hub, senders) = shared
      var sent = 0
      var sentFromFirst = 0
      var disposed = 0
      for round in 0..<Self.rounds {
        switch (round + thread) % 4 {
        case 0, 1:
          hub.post(score, 1, from: senders[thread])
          hub.post(other, 1)
          sent += 1
          if thread == 0 { sentFromFirst += 1 }
        case 2:
          let isDisposed = Guarded(false)
          let token = hub.observe(score) { _ in if isDisposed.value { lateCalls.increment() } }
          hub.post(score, 0)
          token.dispose()
          isDisposed.value = true
          disposed += 1
        default:
          final class Owner {}
          var owner: Owner? = Owner()
          hub.observe(other, with: owner!) { _, _ in }
          owner = nil
          _ = owner
          _ = hub.observerCount(of: other)
        }
      }
      posts.increment(by: sent)
      postsFromFirst.increment(by: sentFromFirst)
      disposals.increment(by: disposed)
    }
    #expect(all.value == posts.value)
    #expect(fromFirst.value == postsFromFirst.value, "the sender filter admitted exactly that sender's posts")
    #expect(others.value == posts.value)
    // A pass another thread began before a dispose returned may still call the handler.
    #expect(lateCalls.value <= (Self.threads - 1) * disposals.value)
    #expect(hub.observerCount(of: score) == 2)
    #expect(hub.observerCount(of: other) == 1, "dead owners and disposed tokens stopped counting")
    stableTokens.forEach { $0.dispose() }
    #expect(hub.observerCount(of: score) == 0 && hub.observerCount(of: other) == 0)
  }
}
