// A stand-in for the part of Apple's Objective-C runtime module that ObservableKit's
// `#if canImport(ObjectiveC)` branch uses (Owners/OwnerLifetime.swift), so that
// scripts/check-apple-branches.sh can type-check it on Linux. Never shipped, never linked:
// only its module interface is used. See README.md for how faithful it is.
//
// Signatures as Swift imports them from <objc/runtime.h>, per Apple's documentation
// (developer.apple.com/documentation/objectivec): the two functions take `Any` and an
// `UnsafeRawPointer` key; the policy is an enumeration of `uintptr_t` raw values.

/// Type to specify the behavior of an association (`OBJC_ENUM(uintptr_t, …)` in C).
public enum objc_AssociationPolicy: UInt, Sendable {
  case OBJC_ASSOCIATION_ASSIGN = 0
  case OBJC_ASSOCIATION_RETAIN_NONATOMIC = 1
  case OBJC_ASSOCIATION_COPY_NONATOMIC = 3
  case OBJC_ASSOCIATION_RETAIN = 769
  case OBJC_ASSOCIATION_COPY = 771
}

/// Sets an associated value for a given object using a given key and association policy.
public func objc_setAssociatedObject(_ object: Any, _ key: UnsafeRawPointer, _ value: Any?, _ policy: objc_AssociationPolicy) {}

/// Returns the value associated with a given object for a given key.
public func objc_getAssociatedObject(_ object: Any, _ key: UnsafeRawPointer) -> Any? { nil }
