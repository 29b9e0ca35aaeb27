import Glibc

/// Bytes appended back to back in one buffer of the object's own, read by offset.
///
/// For the many short names a pack or an expansion keeps (20,000 uuid-named pages): an
/// array of bytes a name costs a 32-byte header and malloc's rounding on top of its bytes,
/// and a name's bytes are here where a C call can read them in place.
///
/// The buffer grows with `realloc`, not with a new buffer and a copy: once it is large,
/// glibc keeps it in pages of its own and grows it with `mremap`, so growing never holds the
/// old and the new buffer at once (which a copy does, near twice the names' bytes), and the
/// pages the bytes have not reached are never touched.
final class ByteArena {
  /// The first byte; moves when the buffer grows.
  private(set) var base: UnsafeMutablePointer<UInt8>
  /// How many bytes are in use.
  private(set) var count = 0
  private var capacity: Int

  /// Creates an empty arena.
  ///
  /// - Parameter capacity: How many bytes to allocate at first.
  init(capacity: Int = 64) {
    self.capacity = max(capacity, 16)
    guard let memory = malloc(self.capacity) else { fatalError("out of memory") }
    base = memory.assumingMemoryBound(to: UInt8.self)
  }

  deinit { free(base) }

  /// Appends bytes, and a terminator after them when one is given.
  ///
  /// - Parameters:
  ///   - bytes: The bytes.
  ///   - terminator: A byte to write after them (a NUL for C strings), or `nil`.
  /// - Returns: Where the bytes start.
  @discardableResult
  func append(_ bytes: UnsafeBufferPointer<UInt8>, terminator: UInt8? = nil) -> Int {
    let start = count
    let needed = count + bytes.count + (terminator == nil ? 0 : 1)
    if needed > capacity {
      let grown = max(needed, capacity * 2)
      guard let moved = realloc(base, grown) else { fatalError("out of memory") }
      base = moved.assumingMemoryBound(to: UInt8.self)
      capacity = grown
    }
    if let source = bytes.baseAddress { (base + start).update(from: source, count: bytes.count) }
    if let terminator { base[start + bytes.count] = terminator }
    count = needed
    return start
  }

  /// Bytes appended earlier; valid until the next append.
  ///
  /// - Parameters:
  ///   - offset: Where they start.
  ///   - length: How many.
  /// - Returns: The bytes, in place.
  func bytes(at offset: Int, length: Int) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + offset, count: length)
  }

  /// A copy holding the same bytes (for a value that owns an arena and is copied).
  func copy() -> ByteArena {
    let copy = ByteArena(capacity: max(count, 16))
    copy.append(UnsafeBufferPointer(start: base, count: count))
    return copy
  }
}
