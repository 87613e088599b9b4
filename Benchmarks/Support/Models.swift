// Scenario 10's set loops, beside the models they set (Models50.swift, generated), shared by
// the suite and the instruction-count tool.
//
// Each loop sets the first of the model's 50 properties once per value. They are in the
// models' module, as a model's own code or an app's would be, so the optimizer sees the
// wrapped property's accessors (the enclosing-instance subscript applied to the storage key
// path) exactly as it sees a stored property's; `@inline(never)` keeps one call per loop, the
// same for every contender and in both executables.

import ObservableKit

/// `model.p0 = value` through `@Property`.
@inline(never)
public func setWrapped(_ model: WrappedModel50, _ values: Range<Int>) {
  for value in values { model.p0 = value }
}

/// `model.p0.value = value` on a stored `Property`.
@inline(never)
public func setStored(_ model: StoredModel50, _ values: Range<Int>) {
  for value in values { model.p0.value = value }
}

/// `model.p0.value = value` on a stored baseline property.
@inline(never)
public func setBaseline(_ model: BaselineModel50, _ values: Range<Int>) {
  for value in values { model.p0.value = value }
}

/// `model.p0 = value` through `@Property(observationTracking: false)`.
@inline(never)
public func setWrapped(_ model: WrappedModel50NoObservation, _ values: Range<Int>) {
  for value in values { model.p0 = value }
}

/// `model.p0.value = value` on a stored `Property(_:observationTracking: false)`.
@inline(never)
public func setStored(_ model: StoredModel50NoObservation, _ values: Range<Int>) {
  for value in values { model.p0.value = value }
}

/// Registers the common handler on the baseline model's `p0`. Here, not at the call site, so that
/// the instruction-count tool does not specialize `BaselineProperty.add` a second time: the copies
/// of its reabstraction thunk get merged, and the S2 baseline's delivery went through the merged
/// one's extra jump (212 → 216 instructions).
@inline(never)
public func observeP0(_ model: BaselineModel50, _ sink: Sink) {
  model.p0.add(makeHandler(sink))
}
