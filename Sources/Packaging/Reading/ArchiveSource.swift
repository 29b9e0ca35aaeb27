import Foundation

/// An archive opened for reading entry by entry, whatever its format and compression.
///
/// The format is detected from the content, not the name. A compressed
/// stream is read by two handles: one undoes the compression (`raw`), the
/// other reads the archive format from its output, so the stream can be
/// drained to its end by ``finish()`` and its trailer checked (libarchive
/// checks xz, zstd, bzip2 and lz4 checksums once it reaches them; Folio
/// checks gzip's CRC-32 and length itself). An uncompressed file is opened
/// directly, seekable, so zip archives are read through their central
/// directory.
final class ArchiveSource {
  /// The archive's path.
  let path: String
  /// Its size in bytes.
  let fileSize: Int64
  /// The current entry, filled by ``next()``.
  let entry: ArchiveEntryHandle
  private let reader: ArchiveReadHandle
  private let decompressor: ArchiveReadHandle?
  private let feed: DecompressedFeed?

  /// Opens an archive.
  ///
  /// - Parameter path: The archive's path.
  /// - Throws: ``PackagingError``: `empty-archive` for a zero-byte file,
  ///   `archive-unreadable` when it cannot be opened, libarchive's codes when the
  ///   format is not recognised.
  init(path: String) throws {
    self.path = path
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw PackagingError(
        .archiveUnreadable, "cannot open '\(path)'", cause: SystemError(errno: errno))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw PackagingError(.archiveUnreadable, "'\(path)' is not a regular file")
    }
    guard info.st_size > 0 else {
      throw PackagingError(.emptyArchive, "'\(path)' is empty (0 bytes), not an archive")
    }
    fileSize = Int64(info.st_size)
    entry = try ArchiveEntryHandle()

    let entry = self.entry
    let opened = try Self.corruption(path, during: "opening the archive") {
      () throws -> (ArchiveReadHandle, ArchiveReadHandle?, DecompressedFeed?) in
      let probe = try ArchiveReadHandle(name: path, formats: .raw, filters: true)
      try probe.open(path: path)
      _ = try probe.nextHeader(into: entry)
      let reader = try ArchiveReadHandle(name: path, formats: .archives, filters: false)
      guard probe.filterCount > 1 else {
        try reader.open(path: path)
        return (reader, nil, nil)
      }
      let feed = DecompressedFeed(upstream: probe)
      try reader.open(feed: feed)
      return (reader, probe, feed)
    }
    (reader, decompressor, feed) = opened
  }

  /// Reads the next entry's header into ``entry``.
  ///
  /// - Returns: `false` at the end of the archive.
  /// - Throws: ``PackagingError`` (`corrupt-archive`) for a damaged header.
  func next() throws -> Bool {
    try corruption(during: "reading the header after the last good entry") {
      try reader.nextHeader(into: entry)
    }
  }

  /// Reads the current entry's next block of data.
  ///
  /// - Parameter name: The entry, for messages.
  /// - Returns: The bytes and their offset, or `nil` at the end of the entry.
  /// - Throws: ``PackagingError`` (`corrupt-archive`) naming the entry.
  func readBlock(of name: EntryName) throws -> (bytes: UnsafeRawBufferPointer, offset: Int64)? {
    try corruption(during: "reading entry \(name.display)") {
      try reader.readBlock(entryName: name.display)
    }
  }

  /// Reads the compressed stream to its end and checks its trailer.
  ///
  /// - Throws: ``PackagingError`` (`corrupt-archive`) when the rest of the stream
  ///   is damaged or a gzip trailer does not match the data.
  func finish() throws {
    guard let feed, let decompressor else { return }
    _ = try corruption(during: "reading the end of the compressed stream") { try feed.drain() }
    guard decompressor.isGzip else { return }
    let end = decompressor.compressedBytesUsed
    let file = try RandomAccessFile(path: path)
    guard end >= 18, let trailer = try file.bytes(at: end - 8, count: 8) else {
      throw PackagingError(.corruptArchive, "'\(path)': the gzip stream has no trailer")
    }
    let crc = UInt32(le: trailer, at: trailer.startIndex)
    let length = UInt32(le: trailer, at: trailer.startIndex + 4)
    let actualLength = UInt32(truncatingIfNeeded: feed.length)
    if crc != feed.checksum.value || length != actualLength {
      throw PackagingError(
        .corruptArchive,
        "'\(path)': the gzip trailer does not match the data (CRC-32 \(hex(crc)) and length \(length) stored, \(hex(feed.checksum.value)) and \(actualLength) read; multi-member gzip streams are not supported)"
      )
    }
  }

  /// Whether the archive is a zip read from a file (so its central directory can be checked).
  var isSeekableZip: Bool { feed == nil && reader.isZip }

  /// Compressed bytes read from the file so far.
  var bytesConsumed: Int64 { decompressor?.bytesConsumed ?? reader.bytesConsumed }

  /// Whether the archive is compressed as a whole (a compressed tar).
  var isCompressed: Bool { feed != nil }

  /// The format and compression, as `folio list` and messages show them.
  var formatDescription: String {
    if let name = decompressor?.compressionName { return "\(reader.formatName), \(name)" }
    return reader.formatName
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// Turns libarchive's failures while reading into `corrupt-archive`, naming where.
  private func corruption<T>(during what: String, _ body: () throws -> T) throws -> T {
    try Self.corruption(path, during: what, body)
  }

  private static func corruption<T>(
    _ path: String, during what: String, _ body: () throws -> T
  ) throws -> T {
    do {
      return try body()
    } catch let error as PackagingError
      where error.code == .archiveWarning || error.code == .archiveFailed
      || error.code == .archiveFatal
    {
      let failure = error.cause as? LibArchiveFailure
      throw PackagingError(
        .corruptArchive, "'\(path)': \(what): \(failure?.message ?? error.message)",
        cause: failure ?? error)
    }
  }
}
