/*:
 [Previous: time operators](@previous)

 # Owner-bound observation

 `observe(with: owner)` holds the owner weakly and hands it to the handler, strongly, for
 the duration of each call. The handler needs no `[weak self]`, and nobody needs to keep the
 returned disposable: the subscription lasts as long as the owner.

 [Next: delivery and async](@next)
 */
import ObservableKit

final class ScoreView {
  var text = "" {
    didSet { print("ScoreView shows \"\(text)\"") }
  }

  init(scores: ObservableEvent<Int>) {
    scores.observe(with: self) { view, score in
      view.text = "\(score) points"
    }
  }

  deinit {
    print("ScoreView deinitializes")
  }
}

example("The subscription lives as long as its owner") {
  let scores = ObservableEvent<Int>()
  withExtendedLifetime(ScoreView(scores: scores)) {
    scores.notifyObservers(10)
    print("observers while the view lives:", scores.observerCount)
  }
  scores.notifyObservers(20)  // the view is gone: nothing is delivered
  print("observers after:", scores.observerCount)
}

//: On a property, the owner-bound handler is called with the current value at once, like
//: any property observer.
final class VolumeSlider {
  var position = 0.0 {
    didSet { print("the slider moves to", position) }
  }
}

example("An owner-bound property observer") {
  let volume = Property(0.5)
  let slider = VolumeSlider()
  volume.observe(with: slider) { slider, level in
    slider.position = level
  }
  volume.value = 0.8
}

//: Derived sources take an owner too.
example("An owner at the end of a chain") {
  let scores = ObservableEvent<Int>()
  withExtendedLifetime(VolumeSlider()) { slider in
    scores.filter { $0 >= 0 }.map { Double($0) / 100 }.observe(with: slider) { slider, level in
      slider.position = level
    }
    scores.notifyObservers(-5)
    scores.notifyObservers(25)
  }
  scores.notifyObservers(50)  // the slider is gone
}

/*:
 Keeping the disposable is optional: dispose it to end the subscription before the owner
 goes. When the handler itself is released depends on the platform: on Apple platforms while
 the owner deallocates; elsewhere at the source's next notification, or during the owner's
 deinit if the owner keeps the token in its own `DisposeBag`.
 */
example("Ending an owner-bound subscription early") {
  let levels = ObservableEvent<Double>()
  let slider = VolumeSlider()
  let token = levels.observe(with: slider) { slider, level in
    slider.position = level
  }
  levels.notifyObservers(0.1)
  token.dispose()
  levels.notifyObservers(0.2)  // disposed: nothing is delivered
  print("observers:", levels.observerCount)
}

//: [Next: delivery and async](@next)
