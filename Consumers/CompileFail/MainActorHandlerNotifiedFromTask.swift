// A @MainActor view model's handler on a confined event, which a detached task then
// notifies: the handler would touch main-actor state off the main actor.
import ObservableKit

@MainActor final class ViewModel {
  var title = ""
  let bag = DisposeBag()

  func bind(to event: ObservableEvent<Int>) {
    event.observe { [weak self] in self?.title = "\($0)" }.disposed(by: bag)
  }
}

@MainActor func notifyFromDetachedTask() {
  let event = ObservableEvent<Int>()
  let viewModel = ViewModel()
  viewModel.bind(to: event)
  Task.detached { event.notifyObservers(1) }  // expected: data race
}
