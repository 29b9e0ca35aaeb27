import FoundationEssentials

/// The regular-file entries of an earlier zip by name, for `pack --update`: an entry whose
/// size, modification time and mode match the file (and its CRC-32, when every byte is
/// checked) has its compressed bytes copied instead of compressing the file again.
///
/// The earlier archive is read with the expansion's zip reader, so a damaged central
/// directory or local headers that disagree with it are refused, never copied.
package final class ZipReuseIndex {
  /// Whether a file's bytes are read and their CRC-32 compared too.
  let checksEveryByte: Bool
  private let file: ArchiveFile
  private var entries: [String: ZipEntry] = [:]
  /// Entries copied so far.
  private(set) var reusedCount = 0

  /// Reads the earlier archive's central directory.
  ///
  /// - Parameters:
  ///   - path: The earlier archive.
  ///   - checksEveryByte: Whether a file's CRC-32 must match too.
  /// - Throws: ``PackagingError`` when it cannot be read or is not a sound zip.
  init(path: String, checksEveryByte: Bool) throws {
    self.checksEveryByte = checksEveryByte
    file = try ArchiveFile(path: path)
    let archive = try ZipArchive(file: file, maxEntries: ExpansionPolicy.default.maxEntryCount)
    entries.reserveCapacity(archive.entryCount)
    for index in 0..<archive.entryCount {
      let entry = archive.entry(at: index)
      guard entry.kind == .file, !entry.isEncrypted,
        entry.method == .stored || entry.method == .deflate,
        let name = entry.name.string
      else { continue }
      entries[name] = entry
    }
  }

  /// The earlier entry's data for a file, when it may be reused.
  ///
  /// - Parameters:
  ///   - path: The entry's name.
  ///   - size: The file's size.
  ///   - permissions: The permission bits to record.
  ///   - modificationTime: The time to record, seconds since 1970.
  ///   - source: The file, read only when every byte is checked.
  /// - Returns: Where the data is, or `nil` to compress the file.
  /// - Throws: ``PackagingError`` when the file cannot be read for its CRC-32.
  func reusableData(
    path: String, size: Int64, permissions: UInt32, modificationTime: Int64,
    source: ZipFileSource
  ) throws -> ZipReusedData? {
    guard let entry = entries[path], entry.uncompressedSize == size,
      entry.modificationTime == modificationTime, entry.permissions == permissions & 0o7777
    else { return nil }
    if checksEveryByte, try source.crc32(size: size) != entry.crc32 { return nil }
    reusedCount += 1
    return ZipReusedData(
      file: file, dataOffset: entry.dataOffset, compressedSize: entry.compressedSize,
      crc32: entry.crc32, method: entry.method == .stored ? .stored : .deflated)
  }
}
