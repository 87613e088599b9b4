/// The registrations of each key of one key type, in registration order.
///
/// A registry keeps one table per key type it has seen (in practice one: a keyed class has
/// one `TKey`), so that a keyed pass looks its key up in a dictionary of that type, with no
/// boxing into `AnyHashable`. Tables are reference types held in the registry's state and,
/// like the rest of it, used only under the storage lock.
@usableFromInline
protocol KeyTable: AnyObject {
  /// Removes `id` from the registrations of `key` (an `AnyHashable` made from a key of this
  /// table's type); does nothing for another type.
  func forget(_ id: UInt64, forKey key: AnyHashable)
  /// Keys with at least one registration.
  var keyCount: Int { get }
}

@usableFromInline
final class TypedKeyTable<Key: Hashable>: KeyTable {
  /// Never holds an empty array.
  @usableFromInline var registrations: [Key: [UInt64]] = [:]

  init() {}

  func append(_ id: UInt64, forKey key: Key) {
    registrations[key, default: []].append(id)
  }

  @usableFromInline
  func forget(_ id: UInt64, forKey key: AnyHashable) {
    guard let key = key.base as? Key else { return }
    registrations[key]?.removeAll { $0 == id }
    if registrations[key]?.isEmpty == true { registrations[key] = nil }
  }

  @usableFromInline
  var keyCount: Int { registrations.count }
}
