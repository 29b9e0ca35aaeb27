/// Reads one zip entry's data from the offsets its ``ZipArchive`` checked, decoding it and
/// checking its size and CRC-32.
///
/// Stored data is read as it lies; DEFLATE data with libdeflate in one call when the entry
/// fits a chunk (``WholeInflateByteSource``), else with zlib as it streams; bzip2, LZMA, xz and
/// Zstandard with libarchive's decoder for that stream alone. The reader
/// never hands on more bytes than the central directory declares (a bomb
/// that lies about its size stops at the lie), and at the end it refuses
/// data that is shorter than declared or whose CRC-32 differs.
///
/// A reader owns its decoder and buffers and is used by one thread; many
/// readers may read one archive at once (see ``ZipArchive``).
final class ZipEntryReader {
  /// The entry being read.
  let entry: ZipEntry
  /// Decoded bytes handed on so far.
  private(set) var bytesRead: Int64 = 0
  private let archiveName: String
  private let raw: FileRangeByteSource
  private let decoded: any ByteSource
  private var crc: UInt32 = 0
  private var ended = false

  /// Prepares to read an entry.
  ///
  /// - Parameters:
  ///   - archive: The checked archive.
  ///   - entry: One of its entries.
  /// - Throws: ``PackagingError``: `encrypted-entry`, `unsupported-compression` naming
  ///   the method, `malformed-zip` for a damaged LZMA header.
  init(archive: ZipArchive, entry: ZipEntry) throws {
    self.entry = entry
    archiveName = archive.name
    let context = "entry \(entry.name.display)"
    if entry.isEncrypted {
      throw PackagingError(.encryptedEntry, "\(context) is encrypted")
    }
    var dataOffset = entry.dataOffset
    var dataLength = entry.compressedSize
    var lzmaHeader: [UInt8]?
    if entry.method == .lzma {
      // APPNOTE 5.8.8: version (2 bytes), properties size (2), properties (5); libarchive's
      // decoder wants the `.lzma` header: properties, then the size or -1 with an end mark.
      guard dataLength >= 9, let head = try archive.file.bytes(at: dataOffset, count: 9),
        head.uint16(at: 2) == 5
      else {
        throw PackagingError(
          .malformedZip, "'\(archive.name)': \(context) has a damaged LZMA header")
      }
      var header = Array(head[4..<9])
      let size = entry.flags & 0x2 != 0 ? UInt64.max : UInt64(entry.uncompressedSize)
      for shift in stride(from: 0, to: 64, by: 8) {
        header.append(UInt8(truncatingIfNeeded: size >> shift))
      }
      lzmaHeader = header
      dataOffset += 9
      dataLength -= 9
    }
    let raw = FileRangeByteSource(archive.file, offset: dataOffset, length: dataLength)
    self.raw = raw
    switch entry.method {
    case _ where entry.uncompressedSize == 0 && entry.method.isSupported:
      // Nothing to decode (libarchive's decoders cannot even recognise a stream this
      // short); the CRC-32 of nothing must still be 0.
      decoded = EmptyByteSource()
    case .stored:
      decoded = raw
    case .deflate
    where WholeInflateByteSource.fits(
      compressedSize: dataLength, declaredSize: entry.uncompressedSize):
      decoded = WholeInflateByteSource(
        raw, compressedSize: dataLength, declaredSize: entry.uncompressedSize, context: context,
        decompressors: archive.decompressors)
    case .deflate:
      decoded = try InflateByteSource(raw, format: .rawDeflate, context: context)
    case .bzip2, .xz, .zstd, .lzma:
      let filter: CompressionFilter =
        switch entry.method {
        case .bzip2: .bzip2
        case .xz: .xz
        case .zstd: .zstd
        default: .lzma
        }
      let input: any ByteSource = lzmaHeader.map { PrefixedByteSource($0, then: raw) } ?? raw
      decoded = try LibArchiveFilterSource(
        input, filter: filter, name: archive.name, context: context)
    default:
      throw PackagingError(
        .unsupportedCompression,
        "\(context) is compressed with \(entry.method.refusalDescription)")
    }
  }

  /// Compressed bytes read from the archive so far.
  var compressedBytesRead: Int64 { raw.bytesRead }

  /// The next decoded chunk, or `nil` once the whole entry was read and checked.
  ///
  /// The bytes stay valid until the next call.
  ///
  /// - Returns: Up to ``ByteSourceChunk/size`` bytes.
  /// - Throws: ``PackagingError`` (`corrupt-archive`) naming the entry: more or fewer
  ///   bytes than declared, a CRC-32 that differs, damaged compressed data.
  func next() throws -> UnsafeRawBufferPointer? {
    guard !ended else { return nil }
    let declared = entry.uncompressedSize
    if let chunk = try decoded.next() {
      guard Int64(chunk.count) <= declared - bytesRead else {
        throw PackagingError(
          .corruptArchive,
          "entry \(entry.name.display) holds more data than the \(declared) bytes its header declares"
        )
      }
      bytesRead += Int64(chunk.count)
      crc = LibDeflate.crc32(crc, chunk)
      return chunk
    }
    ended = true
    guard bytesRead == declared else {
      throw PackagingError(
        .corruptArchive,
        "entry \(entry.name.display) is truncated: \(bytesRead) of \(declared) declared bytes")
    }
    guard crc == entry.crc32 else {
      throw PackagingError(
        .corruptArchive,
        "entry \(entry.name.display) does not match its CRC-32 (\(Self.hex(entry.crc32)) stored, \(Self.hex(crc)) read)"
      )
    }
    return nil
  }

  private static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}

/// No bytes at all: an empty entry's data.
private final class EmptyByteSource: ByteSource {
  func next() throws -> UnsafeRawBufferPointer? { nil }
}
