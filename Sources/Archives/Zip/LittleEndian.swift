extension RandomAccessCollection where Element == UInt8, Index == Int {
  /// The little-endian `UInt16` at `index` (zip and gzip store integers this way).
  func uint16(at index: Int) -> UInt16 {
    UInt16(self[index]) | UInt16(self[index + 1]) << 8
  }

  /// The little-endian `UInt32` at `index`.
  func uint32(at index: Int) -> UInt32 {
    UInt32(uint16(at: index)) | UInt32(uint16(at: index + 2)) << 16
  }

  /// The little-endian `UInt64` at `index`.
  func uint64(at index: Int) -> UInt64 {
    UInt64(uint32(at: index)) | UInt64(uint32(at: index + 4)) << 32
  }
}

extension UnsafeRawBufferPointer {
  // The same reads for bytes already in place, one unaligned load a number instead of a
  // bounds-checked byte at a time (the headers and extra fields of every zip entry opened).

  /// The little-endian `UInt16` at byte offset `index`.
  func uint16(at index: Int) -> UInt16 {
    loadUnaligned(fromByteOffset: index, as: UInt16.self).littleEndian
  }

  /// The little-endian `UInt32` at byte offset `index`.
  func uint32(at index: Int) -> UInt32 {
    loadUnaligned(fromByteOffset: index, as: UInt32.self).littleEndian
  }

  /// The little-endian `UInt64` at byte offset `index`.
  func uint64(at index: Int) -> UInt64 {
    loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian
  }
}
