/// Carries a value across an isolation boundary that the compiler cannot prove safe.
///
/// Each use states why it is safe: the classes of this module keep their own state behind
/// the core storage lock, so handing one to another thread is sound for everything this
/// module owns.
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
