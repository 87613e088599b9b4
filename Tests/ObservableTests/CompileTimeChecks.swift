import Observable
import Testing

// Compile-only checks that pin overload resolution, so that the compatibility surface cannot
// drift. Nothing here needs to run: it passes by compiling without warnings.

protocol CompileCheckObserver: AnyObject {
  func changed()
}

protocol NotClassBound {
  func changed()
}

final class CompileCheckKeyed: KeyedObservableClass<String> {
  func passes() {
    // Named protocols, class types and AnyObject select the generic pass.
    withObservers { (observer: CompileCheckObserver) in observer.changed() }
    withObservers { (observer: CompileCheckKeyed) in _ = observer }
    withObservers { (observer: AnyObject) in _ = observer }
    // Protocols need not be class-bound to filter with (the observers are objects anyway).
    withObservers { (observer: NotClassBound) in observer.changed() }
    withKeyedObservers(key: "K") { (key, observer: CompileCheckObserver) in _ = key; observer.changed() }
    withKeyedObservers(keys: ["K", "L"]) { (key: String, observer: CompileCheckObserver) in _ = key; observer.changed() }

    // A closure that does not name the type of its parameter does not silently match every
    // observer, as it did in Flowduino's Observable:
    //
    //   withObservers { observer in observer.changed() }
    //     error: cannot infer type of closure parameter 'observer' without a type annotation
    //   withObservers { observer in print(observer) }
    //   withObservers { _ in count += 1 }
    //     warning: 'withObservers' is deprecated: name the observer protocol:
    //              withObservers { (observer: MyObserver) in ... }; (observer: AnyObject)
    //              visits every observer
    //   withKeyedObservers(key: "K") { key, observer in print(observer) }
    //     warning: 'withKeyedObservers(key:_:)' is deprecated: name the observer protocol:
    //              withKeyedObservers(key: k) { (key, observer: MyObserver) in ... }
    //
    // (Checked with swiftc -typecheck against the built module; these lines cannot live in
    // the test target, which must build without warnings.)
    //
    // Such closures resolve to deprecated overloads taking `Any`, so the compiler warns (an
    // error with -warnings-as-errors) and tells how to fix it. A generic constraint cannot
    // do better: `T: AnyObject` would also reject `any CompileCheckObserver`.
  }

  func subscriptions(_ observer: CompileCheckObserver, _ observers: [any CompileCheckObserver]) {
    // An existential observer opens into the generic single-observer overloads.
    addObserver(observer)
    removeObserver(observer)
    addKeyedObserver(key: "K", observer)
    addKeyedObserver("K", observer)
    addKeyedObserver(["K", "L"], observer)
    // Arrays of existentials, of one class, or mixed classes take the `[AnyObject]` overloads.
    addObserver(observers)
    addObserver([self, CompileCheckKeyed()])
    addObserver([self, Counter()])
    addKeyedObserver("K", observers)
    addKeyedObserver(["K"], [self, Counter()])
    removeKeyedObserver(["K"], observers)
    removeObserver(observers)
  }
}

// Subclasses written as Flowduino's README writes them compile without warnings in Swift 6,
// and so do subclasses that restate `@unchecked Sendable` to be shared across threads.
class CompileCheckPlain: ObservableClass {}
class CompileCheckThreadSafe: ObservableThreadSafeClass {}
class CompileCheckThread: ObservableThread {
  override init() {
    super.init()
    start()
  }

  override func main() {}
}
final class CompileCheckShared: ObservableThreadSafeClass, @unchecked Sendable {}
class CompileCheckKeyedThread: KeyedObservableThread<Int> {}
class CompileCheckKeyedThreadSafe: KeyedObservableThreadSafeClass<AnyHashable> {}

func sendAcrossThreads(_ shared: CompileCheckShared) {
  Task.detached { shared.withObservers { (observer: CompileCheckObserver) in observer.changed() } }
}
