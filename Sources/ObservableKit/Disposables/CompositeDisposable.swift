/// Disposes several disposables together, in order.
final class CompositeDisposable: Disposable {
  private let parts: [any Disposable]

  init(_ parts: [any Disposable]) {
    self.parts = parts
  }

  func dispose() {
    for part in parts { part.dispose() }
  }

  var isDisposed: Bool { parts.allSatisfy(\.isDisposed) }
}
