// The ObservableKit benchmark suite: every scenario (S1 to S13), each measured for
// ObservableKit, the locked-array baseline and OpenCombine, in that order; scenarios 10 and
// 11 replace OpenCombine with the API they compare with (a stored Property, NotificationCenter).
//
// Run it with `bash Benchmarks/run.sh` from the repository root.

import Benchmark

let benchmarks: @Sendable () -> Void = {
  registerNotify()
  registerPropertySet()
  registerChurn()
  registerTeardown()
  registerDisposeBag()
  registerCompat()
  registerContended()
  registerMemory()
  registerSharedFamily()
  registerIdleModel()
  registerWrappedModel()
  registerHub()
  registerDebounce()
  registerRecorder()
  registerPropertySubscriptions()
  registerPersistedAndBound()
  registerSharedPaths()
  registerReplay()
  registerOwnersAndBag()
}
