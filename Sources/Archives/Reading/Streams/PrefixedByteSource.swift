/// A few fixed bytes, then another source: a zip LZMA entry's data behind the `.lzma`
/// header libarchive's decoder expects.
final class PrefixedByteSource: ByteSource {
  private let prefix: UnsafeMutableRawBufferPointer
  private let upstream: any ByteSource
  private var prefixHanded = false

  /// Hands `prefix` first, then `upstream`.
  ///
  /// - Parameters:
  ///   - prefix: The leading bytes.
  ///   - upstream: What follows.
  init(_ prefix: [UInt8], then upstream: any ByteSource) {
    self.prefix = .allocate(byteCount: max(prefix.count, 1), alignment: 16)
    self.prefix.copyBytes(from: prefix)
    self.upstream = upstream
    prefixHanded = prefix.isEmpty
  }

  deinit { prefix.deallocate() }

  func next() throws -> UnsafeRawBufferPointer? {
    if !prefixHanded {
      prefixHanded = true
      return UnsafeRawBufferPointer(prefix)
    }
    return try upstream.next()
  }
}
