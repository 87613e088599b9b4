import ObservableKit

// A SharedEventHub carries messages between domains: an actor and a detached task post,
// a main-actor view model observes with plain-looking closures that run on the main actor.

/// `nonisolated`: in a target whose default isolation is the main actor, these `static let`s
/// would be main-actor isolated, and the actor below could not post them.
nonisolated enum LibraryMessages {
  static let didDownload = HubMessage<Track>("library.didDownload")
}

/// A payload that crosses domains, so Sendable.
struct Track: Sendable {
  let title: String
}

/// Posts from its own domain, as itself: an actor is Sendable, so it may be a sender.
actor Downloader {
  private let hub: SharedEventHub

  init(hub: SharedEventHub) { self.hub = hub }

  func download(_ title: String) {
    hub.post(LibraryMessages.didDownload, Track(title: title), from: self)
  }
}

final class LibraryViewModel {
  var title = ""
  var fromDownloader: [String] = []
  var ownerTitles: [String] = []
  let bag = DisposeBag()

  init(hub: SharedEventHub, downloader: Downloader) {
    hub.observe(LibraryMessages.didDownload) { [weak self] in self?.title = $0.title }.disposed(by: bag)
    hub.observe(LibraryMessages.didDownload, from: downloader) { [weak self] in
      self?.fromDownloader.append($0.title)
    }.disposed(by: bag)
    hub.observe(LibraryMessages.didDownload, with: self) { viewModel, track in
      viewModel.ownerTitles.append(track.title)
    }
  }
}

/// Posts from an actor and from a detached task; waits until the view model has heard the
/// last post, on the main actor, then shows what it heard.
func libraryOnSharedHub() async {
  let hub = SharedEventHub()
  let downloader = Downloader(hub: hub)
  let viewModel = LibraryViewModel(hub: hub, downloader: downloader)

  // Posted on the main actor, the handlers run before post returns (from the 26 releases on;
  // before them they are enqueued: Expected/before-26 records that output).
  hub.post(LibraryMessages.didDownload, Track(title: "Local"))
  print("shared hub after main-actor post: \(viewModel.title) \(viewModel.ownerTitles)")

  // Posted elsewhere, they are enqueued to the main actor: each subscription in the order of
  // the posts, each post's subscriptions in subscription order. This one, registered after
  // the view model's, hears the last post after them.
  await withCheckedContinuation { (heardLast: CheckedContinuation<Void, Never>) in
    let bag = DisposeBag()
    hub.observe(LibraryMessages.didDownload) { track in
      guard track.title == "Detached" else { return }
      bag.dispose()
      heardLast.resume()
    }.disposed(by: bag)
    Task.detached {
      await downloader.download("Remote")
      hub.post(LibraryMessages.didDownload, Track(title: "Detached"))
    }
  }
  print("shared hub after other domains: \(viewModel.title) | \(viewModel.fromDownloader) | \(viewModel.ownerTitles)")
}
