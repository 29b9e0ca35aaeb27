/// A compression wrapped around a whole archive (`.tar.gz`, `.tar.zst`), told by its magic
/// number.
///
/// Folio peels one layer at a time and looks again, so nested compression
/// (`.tar.gz.xz`) is read as bsdtar reads it, and each layer's own checks
/// apply to that layer's bytes: gzip's trailer is checked on the gzip
/// stream, wherever it sits.
///
/// An RPM package's lead and headers are peeled the same way (libarchive's `rpm`
/// filter, as bsdtar reads a package): what follows is its payload, a compressed cpio.
enum CompressionFilter: String, CaseIterable, Sendable {
  case gzip, bzip2, xz, lzma, lzip, zstd, lz4, compress, rpm

  /// The most layers peeled before the rest is refused (libarchive allows 25 filters).
  static let maxLayers = 8

  /// How many leading bytes ``detect(_:)`` needs at most.
  static let magicLength = 14

  /// The compression whose magic number starts `head`, or `nil`.
  ///
  /// The checks are libarchive's bidders' own, so what bsdtar takes for a
  /// compression Folio does too (LZMA's "alone" header has no magic number:
  /// its properties byte and dictionary size are checked as libarchive does).
  ///
  /// - Parameter head: The first bytes (up to ``magicLength``).
  /// - Returns: The compression, or `nil` when none matches.
  static func detect(_ head: [UInt8]) -> CompressionFilter? {
    func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
    if head.count >= 3, head[0] == 0x1F, head[1] == 0x8B, head[2] == 8 { return .gzip }
    if head.count >= 4, starts([0x42, 0x5A, 0x68]), (0x31...0x39).contains(head[3]) {
      return .bzip2
    }
    if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
    if starts([0x28, 0xB5, 0x2F, 0xFD]) || isSkippableFrame(head) { return .zstd }
    if starts([0x04, 0x22, 0x4D, 0x18]) || starts([0x02, 0x21, 0x4C, 0x18]) { return .lz4 }
    if starts([0x4C, 0x5A, 0x49, 0x50]) { return .lzip }
    if starts([0x1F, 0x9D]) { return .compress }
    // An RPM lead: its magic and a format version of 3 or 4, as libarchive's bidder checks.
    if head.count >= 5, starts([0xED, 0xAB, 0xEE, 0xDB]), head[4] == 3 || head[4] == 4 {
      return .rpm
    }
    if isLZMAAlone(head) { return .lzma }
    return nil
  }

  /// Whether `head` starts a skippable frame (magic 0x184D2A50 to 0x184D2A5F), which a zstd
  /// stream may begin with, as `zstd -d` and libarchive's bidder accept (LZ4 frames share
  /// the magic, but libarchive takes it for zstd, and so does Folio).
  private static func isSkippableFrame(_ head: [UInt8]) -> Bool {
    head.count >= 4 && head[0] & 0xF0 == 0x50 && head[1] == 0x2A && head[2] == 0x4D
      && head[3] == 0x18
  }

  /// libarchive's test for an `.lzma` ("alone") header: a properties byte of at most 224
  /// and a dictionary size of 2^12…2^27 bytes (or a size XZ Utils reduced in 1 MiB steps,
  /// with the usual first byte and an unknown length).
  private static func isLZMAAlone(_ head: [UInt8]) -> Bool {
    guard head.count >= 13, head[0] <= (4 * 5 + 4) * 9 + 8 else { return false }
    let dictionary =
      UInt32(head[1]) | UInt32(head[2]) << 8 | UInt32(head[3]) << 16 | UInt32(head[4]) << 24
    let unknownSize = head[5..<13].allSatisfy { $0 == 0xFF }
    let likelyFirst = head[0] == 0x5D || head[0] == 0x5E
    let powerOfTwo =
      dictionary.nonzeroBitCount == 1 && (12...27).contains(dictionary.trailingZeroBitCount)
    let reduced =
      (0x0030_0000...0x03F0_0000).contains(dictionary) && dictionary & 0xFFFFF == 0
      && likelyFirst && unknownSize
    return powerOfTwo || reduced
  }
}
