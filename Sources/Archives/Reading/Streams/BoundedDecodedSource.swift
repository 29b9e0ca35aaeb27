/// The last compression layer's output, held to the expansion's byte and ratio limits
/// whatever the bytes turn out to be.
///
/// The budgets of an expansion charge the entries' data as it is written. Bytes that are
/// no entry's data (headers, padding, the data of an entry only listed, what follows the
/// archive's end-of-archive blocks) would escape them, so a gzip member of endless zeros
/// could keep `list` or `expand` reading forever. Every decoded byte is counted here
/// against the same limits, so such a stream ends with the same refusal as a bomb does.
///
/// The other way round, compressed bytes that decode to nothing are bounded too: xz takes
/// any run of zeros after a stream as padding, so a pipe of zeros behind a `.tar.xz` would
/// be read forever without one byte coming out.
final class BoundedDecodedSource: ByteSource {
  /// The most compressed bytes read in a row without a decoded byte coming out: far more
  /// than any header, block or skippable frame needs.
  static let maxSilentBytes: Int64 = 16 << 20

  private let upstream: any ByteSource
  private let base: FileByteSource
  private let policy: ExpansionPolicy
  private let name: String
  /// Decoded bytes handed on so far.
  private(set) var produced: Int64 = 0

  /// The byte limit and a sixteenth more (at least 16 MiB) for headers and padding, so an
  /// entry passing the limit is refused first, by the expansion, naming the entry.
  private var maxDecodedBytes: Int64 {
    let room = max(policy.maxTotalBytes / 16, 16 << 20)
    let (sum, overflow) = policy.maxTotalBytes.addingReportingOverflow(room)
    return overflow ? .max : sum
  }

  /// Wraps a decoder's output.
  ///
  /// - Parameters:
  ///   - upstream: The decoded bytes.
  ///   - base: The file or pipe underneath, whose bytes read are the compressed bytes.
  ///   - policy: The byte and ratio limits.
  ///   - name: The archive's name, for messages.
  init(_ upstream: any ByteSource, base: FileByteSource, policy: ExpansionPolicy, name: String) {
    self.upstream = upstream
    self.base = base
    self.policy = policy
    self.name = name
    Self.allowSilentBytes(on: base, name: name)
  }

  /// Lets `base` be read at most ``maxSilentBytes`` further before a decoded byte comes out.
  ///
  /// The opener calls it before it peels the first layer: looking at a layer's first
  /// decoded bytes may already read the whole stream (xz hands out its last block only
  /// once the padding after it ends).
  ///
  /// - Parameters:
  ///   - base: The file or pipe underneath.
  ///   - name: The archive's name, for the message.
  static func allowSilentBytes(on base: FileByteSource, name: String) {
    base.readLimit = (
      base.bytesRead + maxSilentBytes,
      PackagingError(
        .corruptArchive,
        "'\(name)': more than \(maxSilentBytes) compressed bytes in a row decode to nothing (endless padding, not an archive's data)"
      )
    )
  }

  func next() throws -> UnsafeRawBufferPointer? {
    guard let chunk = try upstream.next() else { return nil }
    Self.allowSilentBytes(on: base, name: name)
    produced += Int64(chunk.count)
    if produced > maxDecodedBytes {
      throw PackagingError(
        .expansionTooLarge,
        "'\(name)' decompresses to more than \(maxDecodedBytes) bytes, the byte limit of \(policy.maxTotalBytes) and room for headers and padding (bytes that are no entry's data counted)"
      )
    }
    let compressed = base.bytesRead
    if policy.exceedsRatio(expanded: produced, compressed: compressed) {
      throw PackagingError(
        .compressionRatio,
        "'\(name)': \(produced) bytes decompressed from \(compressed), past the ratio limit of \(Int(policy.maxCompressionRatio))"
      )
    }
    return chunk
  }
}
