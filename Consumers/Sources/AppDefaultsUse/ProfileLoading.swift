import ObservableKit

// An async handler on a confined property, in a main-actor view model: each user ID loads a
// name from an actor, one load at a time, in order, and the handler sets the view model's
// state on the main actor between its awaits.

actor UserDirectory {
  func name(for id: Int) -> String { "user \(id)" }
}

final class UserNameViewModel {
  var names: [String] = []
  let bag = DisposeBag()

  init(userID: Property<Int>, directory: UserDirectory) {
    userID.observe(with: self, policy: .serial) { viewModel, id async in
      let name = await directory.name(for: id)
      viewModel.names.append(name)
    }.disposed(by: bag)
  }

  func waitForNames(_ count: Int) async {
    for _ in 0..<100_000 {
      if names.count >= count { return }
      await Task.yield()
    }
    fatalError("the names did not load within 100,000 yields")
  }
}

func profileFollowsUserID() async {
  let userID = Property(1)
  let viewModel = UserNameViewModel(userID: userID, directory: UserDirectory())
  userID.value = 2
  userID.value = 3
  await viewModel.waitForNames(3)
  print("profile: \(viewModel.names)")
}
