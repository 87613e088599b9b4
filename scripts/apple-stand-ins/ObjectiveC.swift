// A stand-in for the ObjectiveC module, so that `canImport(ObjectiveC)` is true while
// scripts/check-apple-branches.sh type-checks ObservableKit as Apple's compiler sees it.
//
// No symbol of the module is used: the one branch behind that condition
// (Sources/ObservableKit/Properties/ModelFields.swift) picks the class-metadata layout of a
// runtime with Objective-C interop (the isa, cache and data words before Swift's fields,
// Swift's class bit in the data word), which is Apple's. So this module declares nothing; a
// branch that starts to use a runtime symbol fails this check until the symbol is declared
// here, with Apple's documented signature.
