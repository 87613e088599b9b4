import Dispatch
import Observable

// Flowduino-style protocol observers, as a new app writes them (a user's report, with
// the downloader renamed: SharedHub.swift has a `Downloader` actor). In a module whose
// default isolation is the main actor, the protocol and the thread-safe class must say
// `nonisolated`; the view stays on the main actor, and so does its conformance. It adopts
// MainActorObserver, as an app that deploys below the 26 releases does: runtimes before them
// do not check isolated conformances, and the marker has every runtime call it on the main
// actor.

nonisolated protocol DownloadObserver: AnyObject { func progressChanged(to percent: Int) }

nonisolated final class FileDownloader: ObservableThreadSafeClass, @unchecked Sendable {
  func report(_ p: Int) { withObservers { (o: DownloadObserver) in o.progressChanged(to: p) } }
}

final class ProgressView: DownloadObserver, MainActorObserver {
  var shown: [Int] = []
  // `@MainActor` here too: a conformance to a `nonisolated` protocol declared on the class
  // would otherwise make the method nonisolated (the app-defaults module infers it).
  func progressChanged(to p: Int) { shown.append(p) }
}

/// Reports once on the main actor and once from a background queue: the view hears both,
/// on the main actor (the background pass waits for it), in order.
func downloaderReportsFromBackground() async {
  let downloader = FileDownloader()
  let view = ProgressView()
  downloader.addObserver(view)
  downloader.report(10)  // main actor: delivered before report returns
  print("downloader after main-actor report: \(view.shown)")
  await withCheckedContinuation { (reported: CheckedContinuation<Void, Never>) in
    DispatchQueue.global().async {
      downloader.report(50)  // the view is called on the main actor before this returns
      reported.resume()
    }
  }
  print("downloader after background report: \(view.shown)")
}

/// The reported shape: the background report is not awaited. The view hears 50 once the
/// main actor is free again (the bounded loop is a watchdog, not a wait for a time).
func downloaderReportsWithoutWaiting() async {
  let downloader = FileDownloader()
  let view = ProgressView()
  downloader.addObserver(view)
  downloader.report(10)
  DispatchQueue.global().async { downloader.report(50) }
  var turns = 0
  while view.shown.count < 2 && turns < 1_000_000 {
    await Task.yield()
    turns += 1
  }
  print("downloader, background report not awaited: \(view.shown)")
}
