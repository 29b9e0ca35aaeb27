import FoundationEssentials
import Glibc

/// The regular-file entries of an earlier zip by name, for `pack --update`: an entry whose
/// size, modification time and mode match the file (and its CRC-32, when every byte is
/// checked) has its compressed bytes copied instead of compressing the file again.
///
/// The earlier archive is read with the expansion's zip reader, so a damaged central
/// directory or local headers that disagree with it are refused, never copied.
///
/// A pack asks for its entries in the order the earlier pack wrote them, so each name is
/// first compared with the few entries after the last one found (a folder's entry, or a
/// removed file's, may come between); only a name met out of that order builds a table of
/// every name.
package final class ZipReuseIndex {
  /// Whether a file's bytes are read and their CRC-32 compared too.
  let checksEveryByte: Bool
  /// The earlier archive, whose entries' bytes are copied.
  let archive: ZipArchive
  /// The entry where the next name is looked for first.
  private var next = 0
  /// Entries by name, built at the first name met out of order.
  private var indexes: [String: Int]?
  /// Entries copied so far.
  private(set) var reusedCount = 0
  /// How many entries the earlier archive holds.
  var entryCount: Int { archive.entryCount }

  /// How many entries from ``next`` on are compared before the table is built.
  private static let lookahead = 4

  /// Reads the earlier archive's central directory.
  ///
  /// - Parameters:
  ///   - path: The earlier archive.
  ///   - checksEveryByte: Whether a file's CRC-32 must match too.
  ///   - isReplaced: Whether the new archive replaces it (then the pages of the bytes
  ///     copied from it leave the page cache as they are copied).
  /// - Throws: ``PackagingError`` when it cannot be read or is not a sound zip.
  init(path: String, checksEveryByte: Bool, isReplaced: Bool) throws {
    self.checksEveryByte = checksEveryByte
    archive = try ZipArchive(
      file: try ArchiveFile(path: path, forgetsCopiedBytes: isReplaced),
      maxEntries: ExpansionPolicy.default.maxEntryCount, keepsLocalHeaders: true)
  }

  /// The earlier entry's data for a file, when it may be reused.
  ///
  /// - Parameters:
  ///   - path: The entry's name.
  ///   - size: The file's size.
  ///   - permissions: The permission bits to record.
  ///   - modificationTime: The time to record, seconds since 1970.
  ///   - source: The file, made and read only when every byte is checked.
  /// - Returns: Where the data is, or `nil` to compress the file.
  /// - Throws: ``PackagingError`` when the file cannot be read for its CRC-32.
  func reusableData(
    path: String, size: Int64, permissions: UInt32, modificationTime: Int64,
    source: @autoclosure () -> ZipFileSource
  ) throws -> ZipReusedData? {
    guard let index = index(of: path) else { return nil }
    next = index + 1
    // The fields as kept: ``ZipArchive/entry(at:)`` would copy the name, already compared.
    let entry = archive.storedEntry(at: index)
    let method = ZipCompressionMethod(rawValue: entry.method)
    guard entry.kind == .file, !ZipEntry.isEncrypted(flags: entry.flags, method: method),
      method == .stored || method == .deflate,
      entry.uncompressedSize == size, entry.modificationTime == modificationTime,
      entry.permissions == permissions & 0o7777
    else { return nil }
    if checksEveryByte, try source().crc32(size: size) != entry.crc32 { return nil }
    reusedCount += 1
    return ZipReusedData(
      index: index, localHeaderOffset: entry.localHeaderOffset,
      dataOffset: entry.dataOffset, compressedSize: entry.compressedSize, crc32: entry.crc32,
      method: method == .stored ? .stored : .deflated)
  }

  /// The entry of a name, if there.
  private func index(of path: String) -> Int? {
    var path = path
    let guessed = path.withUTF8 { wanted in
      (next..<min(next + Self.lookahead, archive.entryCount)).first { guess in
        archive.withName(at: guess) { name in
          name.count == wanted.count
            && name.withUnsafeBufferPointer {
              wanted.isEmpty || memcmp($0.baseAddress!, wanted.baseAddress!, wanted.count) == 0
            }
        }
      }
    }
    if let guessed { return guessed }
    if indexes == nil {
      var table: [String: Int] = [:]
      table.reserveCapacity(archive.entryCount)
      for index in 0..<archive.entryCount {
        // A name that is not UTF-8 names no file; of two equal names, the first is kept.
        guard let name = archive.withName(at: index, { String(validating: $0, as: UTF8.self) })
        else { continue }
        if table[name] == nil { table[name] = index }
      }
      indexes = table
    }
    return indexes?[path]
  }
}
