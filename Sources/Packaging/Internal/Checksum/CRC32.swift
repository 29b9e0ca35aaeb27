/// The CRC-32 of gzip and zip (reflected polynomial 0xEDB88320), slice-by-8.
///
/// libarchive's gzip reader never compares the trailer's CRC-32 with the
/// data ("XXX TODO: Verify the length and CRC" in its source), so Folio
/// computes it over the decompressed stream itself.
struct CRC32 {
  /// Eight 256-entry tables, one after another: `table[slice * 256 + byte]`.
  private static let table: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for index in 0..<256 {
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
      table[index] = value
    }
    for slice in 1..<8 {
      for index in 0..<256 {
        let previous = table[(slice - 1) * 256 + index]
        table[slice * 256 + index] = (previous >> 8) ^ table[Int(previous & 0xFF)]
      }
    }
    return table
  }()

  /// The checksum of the bytes seen so far.
  private(set) var value: UInt32 = 0

  /// Adds bytes to the checksum.
  ///
  /// - Parameter bytes: The next bytes of the stream.
  mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var crc = ~value
    Self.table.withUnsafeBufferPointer { t in
      var index = 0
      let count = bytes.count
      while index + 8 <= count {
        let low =
          crc
          ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
            | UInt32(bytes[index + 3]) << 24)
        crc =
          t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
          ^ t[3 * 256 + Int(bytes[index + 4])] ^ t[2 * 256 + Int(bytes[index + 5])]
          ^ t[256 + Int(bytes[index + 6])] ^ t[Int(bytes[index + 7])]
        index += 8
      }
      while index < count {
        crc = (crc >> 8) ^ t[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
        index += 1
      }
    }
    value = ~crc
  }
}
