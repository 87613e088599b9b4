/// Finds the `Property` fields of a class instance from the Swift runtime's type descriptors,
/// without instantiating the type metadata of any other field.
///
/// Why not `Mirror`: a mirror resolves every field's type, and on Apple runtimes before macOS
/// 15 / iOS 18 resolving a `nonisolated(nonsending)` function type compiled by Swift 6.2 calls
/// a weakly linked runtime function those runtimes lack, and crashes (swiftlang/swift#85017,
/// #86411; fixed by the 6.3 compiler). Such closures are what a model stores by default in a
/// module with Xcode 26's new-app settings. This walk reads each field's *mangled* type name
/// as bytes and resolves nothing: a field is taken when its name is a direct or indirect
/// symbolic reference to `Property`'s descriptor, bound (`Property<…>`) and optionally
/// optional (`Property<…>?`, a `lazy var`'s storage), held strongly. Its value is then read at
/// the field's offset.
///
/// The layouts read here are Swift's stable ABI: class metadata and the class context
/// descriptor (`TargetClassMetadata`, `TargetClassDescriptor` in the compiler's
/// `include/swift/ABI/Metadata.h`), and the field descriptor and its records
/// (`FieldDescriptor`, `FieldRecord` in `include/swift/RemoteInspection/Records.h`). Anything unexpected (not a
/// class descriptor, a resilient superclass, a field count that disagrees) returns nil, and
/// the caller falls back to `Mirror`.
enum ModelFields {
  /// The byte offset of a class metadata's `Description`: after the kind (isa), the
  /// superclass, on Apple platforms the Objective-C cache (two words) and data word, then
  /// flags, instance address point, instance size, alignment mask, reserved, class size and
  /// class address point (24 bytes).
  #if canImport(ObjectiveC)
  private static let descriptionOffset = 8 * 5 + 24
  #else
  private static let descriptionOffset = 8 * 2 + 24
  #endif

  /// `Property`'s nominal type descriptor, the one every `Property<T>` shares.
  private static var propertyDescriptor: UnsafeRawPointer? { descriptor(of: Property<Int>.self) }

  /// The name and `Property` object of each `Property` field of `object`, superclasses
  /// first, in declaration order; nil when a layout is not the one expected.
  static func properties(of object: AnyObject) -> [(name: String, property: AnyObject)]? {
    guard MemoryLayout<Int>.size == 8, let propertyDescriptor else { return nil }
    let instance = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    var perClass: [[(name: String, property: AnyObject)]] = []
    var current: AnyClass? = type(of: object)
    while let type = current {
      // A class with no Swift descriptor has no Swift fields of its own: an Objective-C class
      // (NSObject), or an artificial subclass the Objective-C runtime made (key-value
      // observing's); its superclasses may have some.
      guard let descriptor = descriptor(of: type) else {
        current = _getSuperclass(type)
        continue
      }
      let flags = descriptor.load(as: UInt32.self)
      // Kind 16 is a class; kind-specific flag 13 is a resilient superclass, whose field
      // offset vector starts at a place only the runtime knows.
      guard flags & 0x1F == 16, flags & (1 << (16 + 13)) == 0 else { return nil }
      let fieldCount = Int(descriptor.load(fromByteOffset: 36, as: UInt32.self))
      let vectorOffset = Int(descriptor.load(fromByteOffset: 40, as: UInt32.self))
      var found: [(name: String, property: AnyObject)] = []
      if fieldCount > 0 {
        guard vectorOffset > 0, let fields = relative(descriptor, 16) else { return nil }
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        guard recordSize == 12, Int(fields.load(fromByteOffset: 12, as: UInt32.self)) == fieldCount else { return nil }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        for index in 0..<fieldCount {
          let record = fields + 16 + index * recordSize
          guard let typeName = relative(record, 4), let name = relative(record, 8),
            holdsProperty(typeName, propertyDescriptor)
          else { continue }
          let offset = metadata.load(fromByteOffset: (vectorOffset + index) * 8, as: Int.self)
          // A strong reference, or nil for an optional one (a lazy property not yet made).
          guard let reference = (instance + offset).load(as: UnsafeRawPointer?.self) else { continue }
          let property = Unmanaged<AnyObject>.fromOpaque(reference).takeUnretainedValue()
          found.append((String(cString: name.assumingMemoryBound(to: CChar.self)), property))
        }
      }
      perClass.append(found)
      current = _getSuperclass(type)
    }
    return perClass.reversed().flatMap { $0 }
  }

  /// The nominal type descriptor of a Swift class, or nil for an Objective-C class.
  private static func descriptor(of type: AnyClass) -> UnsafeRawPointer? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    #if canImport(ObjectiveC)
    // The data word's low bits mark a Swift class (bit 0 before the stable ABI, bit 1 after).
    guard metadata.load(fromByteOffset: 32, as: UInt.self) & 3 != 0 else { return nil }
    #endif
    return metadata.load(fromByteOffset: descriptionOffset, as: UnsafeRawPointer?.self)
  }

  /// The target of the 32-bit relative pointer at `base + offset`, or nil if it is null.
  private static func relative(_ base: UnsafeRawPointer, _ offset: Int) -> UnsafeRawPointer? {
    let distance = base.loadUnaligned(fromByteOffset: offset, as: Int32.self)
    return distance == 0 ? nil : base + offset + Int(distance)
  }

  /// Whether a field's mangled type name is `Property<…>` or `Property<…>?`, held strongly:
  /// a symbolic reference to `Property`'s descriptor (1: direct, 2: through a pointer) first,
  /// and the name ends with the bound generic's `G`, or `GSg` for an optional. A weak or
  /// unowned field (`Xw`, `Xo`, `Xu`), a function, a tuple or a collection of properties
  /// ends otherwise or starts otherwise.
  private static func holdsProperty(_ name: UnsafeRawPointer, _ property: UnsafeRawPointer) -> Bool {
    let kind = name.load(as: UInt8.self)
    guard kind == 1 || kind == 2, let target = relative(name, 1) else { return false }
    let nominal = kind == 1 ? target : target.loadUnaligned(as: UnsafeRawPointer?.self)
    guard nominal == property else { return false }
    // The name's bytes, stepping over symbolic references, whose offsets may hold zeros.
    var bytes: [UInt8] = []
    var index = 0
    while true {
      let byte = name.load(fromByteOffset: index, as: UInt8.self)
      if byte == 0 { break }
      if byte <= 0x17 {
        bytes.append(1)
        index += 5
      } else if byte <= 0x1F {
        bytes.append(1)
        index += 9
      } else {
        bytes.append(byte)
        index += 1
      }
    }
    let tail = String(decoding: bytes.drop { $0 == 1 }, as: UTF8.self)
    return tail.hasPrefix("y") && (tail.hasSuffix("G") || tail.hasSuffix("GSg"))
  }
}
