/// One entry of a ``ZipArchive``, as its checked central-directory record and local
/// header describe it.
///
/// Every offset in it was checked against the file and the other entries
/// when the archive was opened: the data lies between the local header
/// and the central directory, overlaps no other entry, and the local header
/// agrees with the record. A value, so it can be handed to worker threads.
struct ZipEntry: Sendable {
  /// The entry's position in the central directory, from 0.
  let index: Int
  /// The name: the Info-ZIP Unicode path when present and matching, else the stored name.
  let name: EntryName
  /// What the entry creates.
  let kind: ArchiveEntryInfo.Kind
  /// The Unix permission bits (setuid, setgid, sticky included), as libarchive derives them.
  let permissions: UInt32
  /// The compression method.
  let method: ZipCompressionMethod
  /// The general-purpose flags of the central record.
  let flags: UInt16
  /// The CRC-32 of the uncompressed data.
  let crc32: UInt32
  /// The compressed size.
  let compressedSize: Int64
  /// The uncompressed size.
  let uncompressedSize: Int64
  /// Where the local header starts in the file.
  let localHeaderOffset: Int64
  /// Where the compressed data starts in the file.
  let dataOffset: Int64
  /// The modification time in seconds since 1970: the extended-timestamp field when
  /// present, else the DOS time read as local time (as libarchive and unzip do).
  let modificationTime: Int64
  /// The owner and group from the Unix extra fields, 0 when absent.
  let ownerID: Int64
  let groupID: Int64

  /// Whether the data is encrypted (traditional, strong or AES encryption).
  var isEncrypted: Bool { Self.isEncrypted(flags: flags, method: method) }

  /// Whether data with these general-purpose flags and this method is encrypted: the flags'
  /// encryption bits (traditional, strong), or AES's method.
  ///
  /// - Parameters:
  ///   - flags: The general-purpose flags.
  ///   - method: The compression method.
  /// - Returns: `true` for encrypted data.
  static func isEncrypted(flags: UInt16, method: ZipCompressionMethod) -> Bool {
    flags & 0x41 != 0 || method == .aesEncrypted
  }

  /// The entry described for listings and the expansion rules (a symbolic link's target
  /// is in its data, so it is not filled in here).
  var info: ArchiveEntryInfo {
    ArchiveEntryInfo(
      name: name, kind: kind, permissions: permissions,
      size: kind == .file ? uncompressedSize : 0, modificationTime: modificationTime,
      ownerID: ownerID, groupID: groupID)
  }
}
