infix operator <~ : AssignmentPrecedence

/// Sets `property` to `value`: `port <~ 8080` is `port.value = 8080`.
///
/// Named after the assignment in the classic `Observable<T>` blog post. `<<` is left
/// alone: overloading an operator that already means something else hurts readability.
public func <~ <T>(property: Property<T>, value: T) {
  property.value = value
}
