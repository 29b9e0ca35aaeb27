import Glibc

extension ZipFileSource {
  /// The CRC-32 of the source's bytes, read in chunks (`pack --update --checksum`).
  ///
  /// - Parameter size: The size listed for the file.
  /// - Returns: The CRC-32.
  /// - Throws: ``PackagingError`` as ``open()`` and ``read(_:into:at:size:displayPath:)`` do.
  func crc32(size: Int64) throws -> UInt32 {
    switch self {
    case .memory(let data):
      return data.withUnsafeBytes { LibDeflate.crc32(0, $0) }
    case .file:
      let (descriptor, info) = try open()
      defer { close(descriptor) }
      let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
      defer { chunk.deallocate() }
      var crc: UInt32 = 0
      var offset: Int64 = 0
      while offset < size {
        let count = Int(min(Int64(chunk.count), size - offset))
        let part = UnsafeMutableRawBufferPointer(rebasing: chunk[0..<count])
        try Self.read(descriptor, into: part, at: offset, size: size, displayPath: displayPath)
        crc = LibDeflate.crc32(crc, UnsafeRawBufferPointer(part))
        offset += Int64(count)
      }
      try Self.checkUnchanged(descriptor, since: info, displayPath: displayPath)
      return crc
    }
  }
}
