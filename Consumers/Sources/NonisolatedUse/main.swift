// Top-level code is main-actor isolated; the scenarios are plain nonisolated functions.
labelFollowsScore()
localTotal()
weakSelfHistory()
subscribeOldAndNew()
readmeHUD()
operatorChain()
await asyncValues()
