import ObservableKit
import Testing

@Suite("When values subscribes")
struct ValuesSubscriptionTests {
  @Test("Contract: reading values subscribes to nothing; making the iterator subscribes at once")
  func iteratorSubscribes() async {
    let scores = SharedEvent<Int>()
    let values = scores.values
    scores.notifyObservers(0)  // before any iterator: not in the sequence
    #expect(scores.observerCount == 0)
    var iterator = values.makeAsyncIterator()
    #expect(scores.observerCount == 1)
    scores.notifyObservers(1)
    scores.notifyObservers(2)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
  }

  @Test("Contract: a confined source's iterator subscribes when made, too")
  func confinedIteratorSubscribes() async {
    let score = Property(1)
    let values = score.values
    score.value = 2
    #expect(score.observerCount == 0)
    var iterator = values.makeAsyncIterator()
    score.value = 3
    #expect(await iterator.next() == 2, "the value current when the iterator was made")
    #expect(await iterator.next() == 3)
  }
}
