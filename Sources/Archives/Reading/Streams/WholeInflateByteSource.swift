/// A small zip entry's raw DEFLATE stream inflated in one call by libdeflate, with zlib's
/// ``InflateByteSource`` taking over whenever the data is not a clean stream of the
/// declared size.
///
/// For small pages zlib's `inflate` is most of an expansion's instructions, and libdeflate
/// inflates the same streams with far fewer. It needs the whole stream and room for the
/// whole output, so it
/// takes entries whose compressed and declared sizes both fit one ``ByteSourceChunk``:
/// the compressed bytes arrive in one read, the output is one chunk, as zlib would have
/// handed them on. Anything else — damaged data, a stream longer or shorter than its
/// compressed bytes, more data than declared — is read again from the start through
/// zlib, so every error names the entry exactly as it always has.
final class WholeInflateByteSource: ByteSource {
  private let raw: FileRangeByteSource
  private let compressedSize: Int
  private let declaredSize: Int
  private let context: String
  private let decompressors: DeflateDecompressorPool
  private var output: UnsafeMutableRawBufferPointer?
  private var fallback: InflateByteSource?
  private var delivered = false

  /// Whether an entry of these sizes is inflated in one call.
  ///
  /// - Parameters:
  ///   - compressedSize: The entry's compressed size.
  ///   - declaredSize: Its declared uncompressed size.
  /// - Returns: Whether both fit one chunk.
  static func fits(compressedSize: Int64, declaredSize: Int64) -> Bool {
    compressedSize > 0 && compressedSize <= Int64(ByteSourceChunk.size)
      && declaredSize <= Int64(ByteSourceChunk.size)
  }

  /// Inflates an entry's raw DEFLATE stream.
  ///
  /// - Parameters:
  ///   - raw: The entry's compressed bytes (rewound for zlib when it takes over).
  ///   - compressedSize: Their count, at most ``ByteSourceChunk/size``.
  ///   - declaredSize: The uncompressed size the archive declares, at most
  ///     ``ByteSourceChunk/size``.
  ///   - context: What is being read, for messages (`entry 'a.txt'`).
  ///   - decompressors: Where to borrow a decompressor (one per archive).
  init(
    _ raw: FileRangeByteSource, compressedSize: Int64, declaredSize: Int64, context: String,
    decompressors: DeflateDecompressorPool
  ) {
    precondition(Self.fits(compressedSize: compressedSize, declaredSize: declaredSize))
    self.raw = raw
    self.compressedSize = Int(compressedSize)
    self.declaredSize = Int(declaredSize)
    self.context = context
    self.decompressors = decompressors
  }

  deinit { output?.deallocate() }

  /// Whether zlib took over (for tests).
  var tookOverByZlib: Bool { fallback != nil }

  func next() throws -> UnsafeRawBufferPointer? {
    if let fallback { return try fallback.next() }
    guard !delivered else { return nil }
    delivered = true
    // One read: the raw source's buffer holds up to a chunk.
    guard let input = try raw.next(), input.count == compressedSize,
      let produced = try inflate(input)
    else {
      raw.rewind()
      let zlib = try InflateByteSource(raw, format: .rawDeflate, context: context)
      fallback = zlib
      return try zlib.next()
    }
    return UnsafeRawBufferPointer(start: output?.baseAddress, count: produced)
  }

  /// The bytes produced, or `nil` when libdeflate did not find one clean stream that fills
  /// the input and fits the declared size.
  private func inflate(_ input: UnsafeRawBufferPointer) throws -> Int? {
    let room = UnsafeMutableRawBufferPointer.allocate(
      byteCount: max(declaredSize, 1), alignment: 16)
    output = room
    let space = UnsafeMutableRawBufferPointer(rebasing: room[..<declaredSize])
    let inflated = try decompressors.withDecompressor { decompressor in
      try? decompressor.decompress(input, into: space, name: context)
    }
    guard let (consumed, produced) = inflated, consumed == input.count else { return nil }
    return produced
  }
}
