/*:
 [Previous: threads](@previous)

 # A small app model

 The shopping cart of the refactoring.guru "Observer in Swift" example, with everything
 from the earlier pages in one place:

 - the cart's subscribers are protocol observers of an `ObservableClass`;
 - the total is a `Property`, shown to others read-only;
 - "free shipping" is derived from the total with operators;
 - the cart view observes the total with itself as the owner;
 - a receipt printer hears every added product on a queue of its own, and keeps its
   subscription in a `DisposeBag`.

 [Next: persisted and bound state](@next)
 */
import Foundation
import Observable  // brings ObservableKit along

protocol Product {
  var id: Int { get }
  var name: String { get }
  var price: Double { get }
}

struct Food: Product {
  var id: Int
  var name: String
  var price: Double
  var calories: Int
}

struct Clothes: Product {
  var id: Int
  var name: String
  var price: Double
  var size: String
}

protocol CartSubscriber: AnyObject, CustomStringConvertible {
  func accept(changed cart: [Product])
}

final class CartManager: ObservableClass {
  private var cart: [Product] = []
  private let _total = Property(0.0)
  /// The sum of the prices in the cart.
  var total: ReadOnlyProperty<Double> { _total.readOnly }
  /// The name of each product added.
  let productAdded = ObservableEvent<String>()

  func add(subscriber: CartSubscriber) {
    print("CartManager: adding a new subscriber: \(subscriber)")
    addObserver(subscriber)
  }

  func add(product: Product) {
    print("\nCartManager: adding a new product: \(product.name)")
    cart.append(product)
    cartDidChange()
    productAdded.notifyObservers(product.name)
  }

  func remove(product: Product) {
    guard let index = cart.firstIndex(where: { $0.id == product.id }) else { return }
    print("\nCartManager: removing \(product.name) from the cart")
    cart.remove(at: index)
    cartDidChange()
  }

  private func cartDidChange() {
    withObservers { (subscriber: CartSubscriber) in
      subscriber.accept(changed: cart)
    }
    _total.value = cart.reduce(0) { $0 + $1.price }
  }
}

final class NavigationBar: CartSubscriber {
  var description: String { "NavigationBar" }

  func accept(changed cart: [Product]) {
    print("NavigationBar: the cart badge shows \(cart.count)")
  }
}

final class CartViewController: CartSubscriber {
  var description: String { "CartViewController" }
  private var totalText = ""

  init(cart: CartManager) {
    cart.total.observe(with: self) { controller, total in
      controller.totalText = "Total: \(total)"
      print("CartViewController: \(controller.totalText)")
    }
  }

  func accept(changed cart: [Product]) {
    print("CartViewController: listing \(cart.map(\.name).joined(separator: ", "))")
  }
}

final class ReceiptPrinter {
  private let bag = DisposeBag()

  init(cart: CartManager, queue: DispatchQueue) {
    cart.productAdded.observe(on: queue) { name in
      print("ReceiptPrinter: printed a line for \(name) on the \(currentQueueName ?? "?") queue")
    }.disposed(by: bag)
  }
}

let cartManager = CartManager()
let printing = makeQueue(named: "printing")
let receiptPrinter = ReceiptPrinter(cart: cartManager, queue: printing)
let freeShipping = cartManager.total.map { $0 >= 100 }.removeDuplicates()
let shippingToken = freeShipping.observe { print("Shipping: free: \($0)") }

let navigationBar = NavigationBar()
let cartViewController = CartViewController(cart: cartManager)
cartManager.add(subscriber: navigationBar)
cartManager.add(subscriber: cartViewController)

let apple = Food(id: 111, name: "Apple", price: 10, calories: 20)
cartManager.add(product: apple)
printing.sync {}  // let the printer catch up, so that the output reads in order

let tShirt = Clothes(id: 222, name: "T-shirt", price: 200, size: "L")
cartManager.add(product: tShirt)
printing.sync {}

cartManager.remove(product: apple)
shippingToken.dispose()
withExtendedLifetime(receiptPrinter) {}
