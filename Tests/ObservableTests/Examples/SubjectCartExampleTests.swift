import Observable
import Testing

// Seed 004 (refactoring.guru, "Observer in Swift"): the conceptual Subject and the
// real-world CartManager, written with this module. The subscriber lists become
// `ObservableClass`; `: class` becomes `: AnyObject`; `CartSubscriber` gains `AnyObject`
// (observers are objects held weakly, and `withObservers` needs the protocol named); the
// random state is injected so that the printed output is the seed's own; UIKit classes
// become plain classes that print the same descriptions.

/// The lines the examples print, in order.
private final class Output {
  var lines: [String] = []
  func print(_ line: String) { lines.append(line) }
}

// MARK: Conceptual example

/// The Observer protocol declares the update method, used by subjects.
protocol SubjectObserver: AnyObject {
  func update(subject: Subject)
}

/// The Subject owns some important state and notifies observers when the state changes.
class Subject: ObservableClass {
  /// For the sake of simplicity, the Subject's state, essential to all subscribers, is
  /// stored in this variable.
  var state: Int
  private var nextState: () -> Int
  fileprivate let output: Output

  fileprivate init(output: Output, states: [Int]) {
    var states = states.makeIterator()
    self.nextState = { states.next()! }
    self.state = 0
    self.output = output
  }

  /// The subscription management methods.
  func attach(_ observer: SubjectObserver) {
    output.print("Subject: Attached an observer.")
    addObserver(observer)
  }

  func detach(_ observer: SubjectObserver) {
    var attached = false
    withObservers { (candidate: SubjectObserver) in attached = attached || candidate === observer }
    guard attached else { return }
    removeObserver(observer)
    output.print("Subject: Detached an observer.")
  }

  /// Trigger an update in each subscriber.
  func notify() {
    output.print("Subject: Notifying observers...")
    withObservers { (observer: SubjectObserver) in observer.update(subject: self) }
  }

  func someBusinessLogic() {
    output.print("Subject: I'm doing something important.")
    state = nextState()
    output.print("Subject: My state has just changed to: \(state)")
    notify()
  }
}

/// Concrete Observers react to the updates issued by the Subject they had been attached to.
class ConcreteObserverA: SubjectObserver {
  func update(subject: Subject) {
    if subject.state < 3 {
      subject.output.print("ConcreteObserverA: Reacted to the event.")
    }
  }
}

class ConcreteObserverB: SubjectObserver {
  func update(subject: Subject) {
    if subject.state >= 3 {
      subject.output.print("ConcreteObserverB: Reacted to the event.")
    }
  }
}

// MARK: Real-world example

protocol CartSubscriber: AnyObject, CustomStringConvertible {
  func accept(changed cart: [Product])
}

protocol Product {
  var id: Int { get }
  var name: String { get }
  var price: Double { get }

  func isEqual(to product: Product) -> Bool
}

extension Product {
  func isEqual(to product: Product) -> Bool {
    return id == product.id
  }
}

struct Food: Product {
  var id: Int
  var name: String
  var price: Double

  /// Food-specific properties
  var calories: Int
}

struct Clothes: Product {
  var id: Int
  var name: String
  var price: Double

  /// Clothes-specific properties
  var size: String
}

class CartManager: ObservableClass {
  private lazy var cart = [Product]()
  fileprivate let output: Output

  fileprivate init(output: Output) {
    self.output = output
  }

  func add(subscriber: CartSubscriber) {
    output.print("CartManager: I'am adding a new subscriber: \(subscriber.description)")
    addObserver(subscriber)
  }

  func add(product: Product) {
    output.print("CartManager: I'am adding a new product: \(product.name)")
    cart.append(product)
    notifySubscribers()
  }

  func remove(subscriber filter: (CartSubscriber) -> (Bool)) {
    var match: CartSubscriber?
    withObservers { (subscriber: CartSubscriber) in
      if match == nil, filter(subscriber) { match = subscriber }
    }
    if let match { removeObserver(match) }
  }

  func remove(product: Product) {
    guard let index = cart.firstIndex(where: { $0.isEqual(to: product) }) else { return }
    output.print("CartManager: Product '\(product.name)' is removed from a cart")
    cart.remove(at: index)
    notifySubscribers()
  }

  private func notifySubscribers() {
    withObservers { (subscriber: CartSubscriber) in subscriber.accept(changed: cart) }
  }
}

private class NavigationBar: CartSubscriber {
  let output: Output
  init(output: Output) { self.output = output }

  func accept(changed cart: [Product]) {
    output.print("UINavigationBar: Updating an appearance of navigation items")
  }

  var description: String { "UINavigationBar" }
}

private class CartViewController: CartSubscriber {
  let output: Output
  init(output: Output) { self.output = output }

  func accept(changed cart: [Product]) {
    output.print("CartViewController: Updating an appearance of a list view with products")
  }

  var description: String { "CartViewController" }
}

@Suite("Subject and CartManager examples (seed 004)")
struct SubjectCartExampleTests {
  @Test("The conceptual example prints the seed's output")
  func observerConceptual() {
    let output = Output()
    let subject = Subject(output: output, states: [4, 2, 8])
    let observer1 = ConcreteObserverA()
    let observer2 = ConcreteObserverB()

    subject.attach(observer1)
    subject.attach(observer2)

    subject.someBusinessLogic()
    subject.someBusinessLogic()

    subject.detach(observer2)

    subject.someBusinessLogic()

    #expect(output.lines == [
      "Subject: Attached an observer.",
      "Subject: Attached an observer.",
      "Subject: I'm doing something important.",
      "Subject: My state has just changed to: 4",
      "Subject: Notifying observers...",
      "ConcreteObserverB: Reacted to the event.",
      "Subject: I'm doing something important.",
      "Subject: My state has just changed to: 2",
      "Subject: Notifying observers...",
      "ConcreteObserverA: Reacted to the event.",
      "Subject: Detached an observer.",
      "Subject: I'm doing something important.",
      "Subject: My state has just changed to: 8",
      "Subject: Notifying observers...",
    ])
  }

  @Test("The real-world example prints the seed's output, in subscription order")
  func observerRealWorld() {
    let output = Output()
    let cartManager = CartManager(output: output)
    let navigationBar = NavigationBar(output: output)
    let cartVC = CartViewController(output: output)

    cartManager.add(subscriber: navigationBar)
    cartManager.add(subscriber: cartVC)

    let apple = Food(id: 111, name: "Apple", price: 10, calories: 20)
    cartManager.add(product: apple)

    let tShirt = Clothes(id: 222, name: "T-shirt", price: 200, size: "L")
    cartManager.add(product: tShirt)

    cartManager.remove(product: apple)

    #expect(output.lines == [
      "CartManager: I'am adding a new subscriber: UINavigationBar",
      "CartManager: I'am adding a new subscriber: CartViewController",
      "CartManager: I'am adding a new product: Apple",
      "UINavigationBar: Updating an appearance of navigation items",
      "CartViewController: Updating an appearance of a list view with products",
      "CartManager: I'am adding a new product: T-shirt",
      "UINavigationBar: Updating an appearance of navigation items",
      "CartViewController: Updating an appearance of a list view with products",
      "CartManager: Product 'Apple' is removed from a cart",
      "UINavigationBar: Updating an appearance of navigation items",
      "CartViewController: Updating an appearance of a list view with products",
    ])

    // The seed's filter-based removal.
    cartManager.remove { $0.description == "UINavigationBar" }
    output.lines = []
    cartManager.add(product: apple)
    #expect(output.lines == [
      "CartManager: I'am adding a new product: Apple",
      "CartViewController: Updating an appearance of a list view with products",
    ])
  }
}
