/// Bytes built field by field in little-endian order, as zip headers are.
///
/// The fields are stored into a buffer of the size given, on the stack when it is small,
/// rather than appended to an array: every entry of a zip has two headers of some twenty
/// fields, and an array for each cost more than the fields.
struct LittleEndianBytes {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  /// How many bytes are built.
  private(set) var count = 0

  private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

  /// Builds at most `capacity` bytes from `source` and hands them to `body`.
  ///
  /// `build` is given `source` rather than capturing it: a captured value is copied into
  /// the closure's context (its references retained and released) every time.
  ///
  /// - Parameters:
  ///   - capacity: The most bytes `build` appends.
  ///   - source: What the fields are read from.
  ///   - body: Given the bytes built, valid only during the call.
  ///   - build: Appends the fields.
  /// - Returns: What `body` returns.
  static func building<Source, Result>(
    capacity: Int, from source: Source,
    then body: (UnsafeBufferPointer<UInt8>) throws -> Result,
    _ build: (inout LittleEndianBytes, Source) -> Void
  ) rethrows -> Result {
    try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var bytes = LittleEndianBytes(buffer: buffer)
      build(&bytes, source)
      return try body(UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
    }
  }

  /// Builds at most `capacity` bytes into an array.
  ///
  /// - Parameters:
  ///   - capacity: The most bytes `build` appends.
  ///   - build: Appends the fields.
  /// - Returns: The bytes built.
  static func array(capacity: Int, _ build: (inout LittleEndianBytes) -> Void) -> [UInt8] {
    building(capacity: capacity, from: (), then: { Array($0) }) { bytes, _ in build(&bytes) }
  }

  mutating func append(_ value: UInt16) { store(value) }

  mutating func append(_ value: UInt32) { store(value) }

  mutating func append(_ value: UInt64) { store(value) }

  mutating func append(_ value: UInt8) { store(value) }

  /// Appends a text's UTF-8, read in place (a native string's bytes are contiguous).
  mutating func append(utf8Of text: String) {
    // Borrowed where the bytes lie: `withUTF8` needs a mutable copy of the string, retained
    // and released for every header.
    let appended: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
      append(contentsOf: utf8)
    }
    if appended == nil { append(contentsOf: Array(text.utf8)) }
  }

  private mutating func append(contentsOf utf8: some Collection<UInt8>) {
    precondition(count + utf8.count <= buffer.count, "more bytes than the capacity given")
    _ = UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: utf8)
    count += utf8.count
  }

  private mutating func store<Value: FixedWidthInteger>(_ value: Value) {
    let size = MemoryLayout<Value>.size
    precondition(count + size <= buffer.count, "more bytes than the capacity given")
    UnsafeMutableRawBufferPointer(buffer).storeBytes(
      of: value.littleEndian, toByteOffset: count, as: Value.self)
    count += size
  }
}
