/// A source whose first bytes can be looked at before they are read, to tell
/// what they are (a compression's magic number, a zip's signature).
final class PeekableByteSource: ByteSource {
  private let upstream: any ByteSource
  private var head: [UInt8] = []
  private var headHanded = false
  private var upstreamEnded = false
  /// The head's bytes while the caller reads them (valid until the next call).
  private var handedHead: UnsafeMutableRawBufferPointer?

  /// Wraps a source.
  ///
  /// - Parameter upstream: The source; nothing is read from it until asked.
  init(_ upstream: any ByteSource) {
    self.upstream = upstream
  }

  deinit { handedHead?.deallocate() }

  /// The first `count` bytes, or fewer when the source is shorter; reading starts
  /// again from the first byte afterwards.
  ///
  /// - Parameter count: How many bytes to look at.
  /// - Returns: Up to `count` bytes.
  /// - Throws: What the upstream throws.
  func peek(_ count: Int) throws -> [UInt8] {
    precondition(!headHanded, "peek after reading")
    while head.count < count && !upstreamEnded {
      if let chunk = try upstream.next() {
        head.append(contentsOf: chunk)
      } else {
        upstreamEnded = true
      }
    }
    return Array(head.prefix(count))
  }

  func next() throws -> UnsafeRawBufferPointer? {
    if !headHanded {
      headHanded = true
      if !head.isEmpty {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: head.count, alignment: 16)
        copy.copyBytes(from: head)
        handedHead = copy
        head = []
        return UnsafeRawBufferPointer(copy)
      }
    }
    handedHead?.deallocate()
    handedHead = nil
    if upstreamEnded { return nil }
    return try upstream.next()
  }
}
