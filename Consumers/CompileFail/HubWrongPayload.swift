// A message declares its payload type once: posting or observing another type does not
// compile. Each unmarked call is the same call with the declared type.
import ObservableKit

enum CounterMessages {
  static let didCount = HubMessage<Int>("counter.didCount")
}

func postAndObserve(
  on hub: EventHub, bag: DisposeBag,
  showCount: @escaping (Int) -> Void, showText: @escaping (String) -> Void
) {
  hub.post(CounterMessages.didCount, 1)
  hub.post(CounterMessages.didCount, "one")  // expected error: 'String' to expected argument type 'Int'
  hub.observe(CounterMessages.didCount, showCount).disposed(by: bag)
  hub.observe(CounterMessages.didCount, showText).disposed(by: bag)  // expected error: '\(String\) -> .*' to expected argument type '\(Int\)
  hub.observe(CounterMessages.didCount) { (count: Int) in print(count) }.disposed(by: bag)
  hub.observe(CounterMessages.didCount) { (text: String) in print(text) }.disposed(by: bag)  // expected error: '\(String\) -> .*' to expected argument type '\(Int\)
}
