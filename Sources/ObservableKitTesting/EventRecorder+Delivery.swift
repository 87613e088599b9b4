import Dispatch
import ObservableKit

extension EventSource where Value: Sendable {
  /// Records every value this source delivers from now on through `observe(on: queue)`, and
  /// counts each value as it is notified, so that
  /// ``EventRecorder/waitUntilIdle(timeout:fileID:line:isolation:)`` can wait for the
  /// deliveries still on their way; see ``EventRecorder``.
  public func record(on queue: DispatchQueue, fileID: String = #fileID, line: Int = #line) -> EventRecorder<Value> {
    EventRecorder<Value>.recording(site: "\(fileID):\(line)") { recorder in
      // The count first, so a value is counted before its delivery can record it.
      (observe { [weak recorder] _ in recorder?.noteNotified() },
       observe(on: queue) { [weak recorder] in recorder?.append($0, notified: false) })
    }
  }

  /// Records every value this source delivers from now on through `observe(on: MainActor)`,
  /// and counts each value as it is notified, so that
  /// ``EventRecorder/waitUntilIdle(timeout:fileID:line:isolation:)`` can wait for the
  /// deliveries still on their way; see ``EventRecorder``.
  public func record(on mainActor: MainActor, fileID: String = #fileID, line: Int = #line) -> EventRecorder<Value> {
    EventRecorder<Value>.recording(site: "\(fileID):\(line)") { recorder in
      // The count first, so a value is counted before its delivery can record it.
      (observe { [weak recorder] _ in recorder?.noteNotified() },
       observe(on: mainActor) { [weak recorder] in recorder?.append($0, notified: false) })
    }
  }
}

extension SharedEventSource {
  /// Records every value this source delivers from now on through `observe(on: queue)`, and
  /// counts each value as it is notified (with `observeNonisolated`, on the notifying
  /// thread), so that ``EventRecorder/waitUntilIdle(timeout:fileID:line:isolation:)`` can
  /// wait for the deliveries still on their way; see ``EventRecorder``.
  public func record(on queue: DispatchQueue, fileID: String = #fileID, line: Int = #line) -> EventRecorder<Value> {
    EventRecorder<Value>.recording(site: "\(fileID):\(line)") { recorder in
      // The count first, so a value is counted before its delivery can record it.
      (observeNonisolated { [weak recorder] _ in recorder?.noteNotified() },
       observe(on: queue) { [weak recorder] in recorder?.append($0, notified: false) })
    }
  }

  /// Records every value this source delivers from now on through `observe(on: MainActor)`,
  /// and counts each value as it is notified (with `observeNonisolated`), so that
  /// ``EventRecorder/waitUntilIdle(timeout:fileID:line:isolation:)`` can wait for the
  /// deliveries still on their way; see ``EventRecorder``.
  public func record(on mainActor: MainActor, fileID: String = #fileID, line: Int = #line) -> EventRecorder<Value> {
    EventRecorder<Value>.recording(site: "\(fileID):\(line)") { recorder in
      // The count first, so a value is counted before its delivery can record it.
      (observeNonisolated { [weak recorder] _ in recorder?.noteNotified() },
       observe(on: mainActor) { [weak recorder] in recorder?.append($0, notified: false) })
    }
  }
}

/// A recorder's two subscriptions, the count and the delivery, ended together (the delivery
/// first, so that no value is counted that will not come).
final class RecordingPair: Disposable {
  private let counting: any Disposable
  private let delivering: any Disposable

  init(_ counting: any Disposable, _ delivering: any Disposable) {
    self.counting = counting
    self.delivering = delivering
  }

  func dispose() {
    delivering.dispose()
    counting.dispose()
  }

  var isDisposed: Bool { delivering.isDisposed }
}

extension EventRecorder {
  /// A recorder fed by the two subscriptions `subscribe` makes: one that counts each value as
  /// it is notified, one that records it as its delivery brings it.
  fileprivate static func recording(
    site: String,
    _ subscribe: (EventRecorder) -> (counting: any Disposable, delivering: any Disposable)
  ) -> EventRecorder {
    let recorder = EventRecorder(site: site)
    let (counting, delivering) = subscribe(recorder)
    recorder.attach(RecordingPair(counting, delivering))
    LeakCheck.current?.track(recorder.subscriptionProbe, "record(on:)", site: recorder.site)
    return recorder
  }
}
