// Must compile with the command that the CompileFail cases fail, proving that the command
// builds valid code. The confined event stays in its domain; the shared one crosses.
import Foundation
import ObservableKit

func countHere() {
  let event = ObservableEvent<Int>()
  var total = 0
  let token = event.observe { total += $0 }
  event.notifyObservers(1)
  print(total)
  token.dispose()
}

@MainActor final class ViewModel {
  var title = ""
  let bag = DisposeBag()

  init(progress: SharedEvent<Int>) {
    progress.observe { [weak self] in self?.title = "\($0)%" }.disposed(by: bag)
  }
}

@MainActor func notifyFromElsewhere() {
  let progress = SharedEvent<Int>()
  let viewModel = ViewModel(progress: progress)
  Task.detached { progress.notifyObservers(50) }
  Thread.detachNewThread { progress.notifyObservers(100) }
  print(viewModel.title)
}
