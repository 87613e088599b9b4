// A stand-in for the part of Apple's Combine that ObservableKit's `#if canImport(Combine)`
// branches use, so that scripts/check-apple-branches.sh can type-check those branches on
// Linux. Never shipped, never linked: only its module interface is used. See README.md for
// how faithful it is.
//
// Declarations follow the Combine interface of the Xcode 26 SDK as Apple's documentation
// shows it (developer.apple.com/documentation/combine): names, generic signatures,
// associated types and their defaults, `final`, and availability. Bodies are placeholders.

/// Combine's `Publisher` (primary associated types since the iOS 16 / macOS 13 SDKs).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Publisher<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error
  func receive<S>(subscriber: S) where S: Subscriber, Self.Failure == S.Failure, Self.Output == S.Input
}

/// Combine's `Subscriber`, reduced to its associated types (its methods are not used).
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol Subscriber<Input, Failure> {
  associatedtype Input
  associatedtype Failure: Error
}

/// Combine's `ObservableObject`.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
public protocol ObservableObject: AnyObject {
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where Self.ObjectWillChangePublisher.Failure == Never
  var objectWillChange: Self.ObjectWillChangePublisher { get }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
  /// Combine synthesizes one publisher per object; the stand-in only has the signature.
  public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// Combine's `ObservableObjectPublisher`: a final class, not `Sendable` in the SDK.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class ObservableObjectPublisher: Publisher {
  public typealias Output = Void
  public typealias Failure = Never
  public init() {}
  final public func receive<S>(subscriber: S) where S: Subscriber, S.Failure == Never, S.Input == () {}
  final public func send() {}
}

@available(*, unavailable)
extension ObservableObjectPublisher: Sendable {}
