import ObservableKit

// Top-level code runs on the main actor: each print comes right after the set, so the
// expected output proves the handlers ran before the set returned. Before the 26 releases the
// shared family's handlers are enqueued instead (Expected/before-26 records that output);
// observe(on: MainActor.shared) runs at once on both paths.

let score = Property(1)
let scoreViewModel = ScoreViewModel(score: score)
print("after init: \(scoreViewModel.title) | \(scoreViewModel.ownerTitle) | \(scoreViewModel.mainActorTitle)")
score.value = 2
print("after set: \(scoreViewModel.title) | \(scoreViewModel.ownerTitle) | \(scoreViewModel.mainActorTitle)")
score.value = 3
print("changes: \(scoreViewModel.changes)")

let status = SharedProperty("offline")
let events = SharedEvent<String>()
let statusViewModel = StatusViewModel(status: status, events: events)
print("shared after init: \(statusViewModel.title) | \(statusViewModel.ownerTitle)")
status.value = "online"
events.notifyObservers("tapped")
print("shared after main-thread set: \(statusViewModel.title) | \(statusViewModel.ownerTitle) | \(statusViewModel.lastEvent) | \(statusViewModel.changes)")

// From another domain the handlers are enqueued to the main actor, to run once it is free.
await Task.detached {
  status.value = "away"
  events.notifyObservers("pushed")
}.value
await statusViewModel.waitUntil("the detached set") {
  statusViewModel.title == "away" && statusViewModel.ownerTitle == "owner away"
    && statusViewModel.lastEvent == "pushed" && statusViewModel.changes.count == 2
}
print("shared after detached set: \(statusViewModel.title) | \(statusViewModel.ownerTitle) | \(statusViewModel.lastEvent)")
print("shared changes: \(statusViewModel.changes)")

let player = AudioPlayer()
let screen = NowPlayingScreen("screen")
var miniPlayer: NowPlayingScreen? = NowPlayingScreen("mini")
player.addObserver(screen)
player.addObserver(miniPlayer!)
player.play("Intro")
miniPlayer = nil  // held weakly: gone from the list
player.stop()
print("audio: \(screen.lines)")

propertyModel()
playerOnHub()
await libraryOnSharedHub()

await observationModels()
signUpForms()
await downloaderReportsFromBackground()
await downloaderReportsWithoutWaiting()
await actorOwnsSubscriptions()
await searchAsYouType()
await profileFollowsUserID()
await searchWithDebounce()
