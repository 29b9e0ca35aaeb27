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
