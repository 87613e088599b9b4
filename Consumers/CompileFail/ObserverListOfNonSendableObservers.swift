// A list of observers that are not Sendable is confined like them: a detached task may
// not visit it.
import ObservableKit

protocol Listener: AnyObject { func heard() }

func visitFromDetachedTask(_ listeners: WeakObserverList<any Listener>) {
  Task.detached { listeners.forEach { $0.heard() } }  // expected: data race
}
