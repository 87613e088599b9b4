// A stand-in for the part of Apple's Combine that ObservableKit's `#if canImport(Combine)`
// branches use, so that scripts/check-apple-branches.sh can type-check those branches on
// Linux. Never shipped, never linked: only its module interface is used. See README.md for
// how faithful it is.
//
// Declarations follow the Combine interface of the Xcode 26 SDK as Apple's documentation
// shows it (developer.apple.com/documentation/combine): names, generic signatures,
// associated types and their defaults, `final`, and availability. The bodies model the one
// behaviour scripts/check-apple-branches.sh runs a program against: an
// `ObservableObjectPublisher` delivers `send()` to the sinks attached to that same instance,
// and `ObservableObject`'s default `objectWillChange`, for a class that stores no publisher
// (no `@Published` field, no stored `objectWillChange`), is a new publisher on every access,
// so a send through it reaches nobody. The bodies are single-threaded: the program sends and
// subscribes on its main thread only.

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
  /// Combine's synthesized publisher. Combine keeps it in the storage of the class's first
  /// `@Published` field; the stand-in has no `@Published`, so, as Combine does for a class
  /// without such a field, it hands out a new publisher on every access.
  public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// Combine's `ObservableObjectPublisher`: a final class, not `Sendable` in the SDK.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class ObservableObjectPublisher: Publisher {
  public typealias Output = Void
  public typealias Failure = Never
  /// The sinks attached to this instance, by the identifier their cancellable removes.
  fileprivate var sinks: [(id: Int, receive: () -> Void)] = []
  fileprivate var nextID = 0
  public init() {}
  final public func receive<S>(subscriber: S) where S: Subscriber, S.Failure == Never, S.Input == () {}
  /// Calls every sink attached to this instance, in the order they were attached.
  final public func send() {
    for sink in sinks { sink.receive() }
  }
}

@available(*, unavailable)
extension ObservableObjectPublisher: Sendable {}

/// Combine's `AnyCancellable`: cancels when told to, and when released.
@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
final public class AnyCancellable: Hashable {
  private var onCancel: (() -> Void)?
  public init(_ cancel: @escaping () -> Void) { onCancel = cancel }
  final public func cancel() {
    let cancel = onCancel
    onCancel = nil
    cancel?()
  }
  deinit { cancel() }
  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
extension Publisher where Self.Failure == Never {
  /// Combine's `sink(receiveValue:)`. The stand-in delivers through `ObservableObjectPublisher`
  /// only, the one publisher the program subscribes to; for any other it never calls.
  public func sink(receiveValue: @escaping (Self.Output) -> Void) -> AnyCancellable {
    guard let publisher = self as? ObservableObjectPublisher,
      let receive = receiveValue as? (()) -> Void
    else { return AnyCancellable {} }
    let id = publisher.nextID
    publisher.nextID += 1
    publisher.sinks.append((id, { receive(()) }))
    return AnyCancellable { [weak publisher] in publisher?.sinks.removeAll { $0.id == id } }
  }
}
