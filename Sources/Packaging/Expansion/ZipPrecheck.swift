/// Checks a zip archive's central directory against a policy before anything is written.
///
/// Refuses what a streaming pass would only find halfway through (or never):
/// totals over the budget, entries whose compressed data overlap (David
/// Fifield's non-recursive zip bomb), a local header whose name, method or
/// sizes disagree with the central directory (libarchive reads the local
/// one), encrypted entries, and every name rule of ``ExpansionLedger``.
enum ZipPrecheck {
  /// What the pre-check learnt, for the pass that follows.
  struct Summary {
    /// Entries in the central directory.
    var entryCount: Int
    /// The sum of declared uncompressed sizes of the entries that will be written.
    var declaredBytes: Int64
    /// Files and links that will be written (folders and skipped entries not counted).
    var fileCount: Int
  }

  /// Runs every check.
  ///
  /// - Parameters:
  ///   - path: The archive's path.
  ///   - policy: Limits and options.
  /// - Returns: Totals from the central directory.
  /// - Throws: ``PackagingError`` naming the entry and the rule.
  static func check(_ path: String, policy: ExpansionPolicy) throws -> Summary {
    let file = try RandomAccessFile(path: path)
    return try check(file, name: path, policy: policy)
  }

  /// Runs every check on an open file.
  ///
  /// - Parameters:
  ///   - file: The archive.
  ///   - name: The archive's path, for messages.
  ///   - policy: Limits and options.
  /// - Returns: Totals from the central directory.
  /// - Throws: ``PackagingError`` naming the entry and the rule.
  static func check(_ file: RandomAccessFile, name: String, policy: ExpansionPolicy) throws
    -> Summary
  {
    let directory = try ZipCentralDirectory.read(file, name: name, maxEntries: policy.maxEntryCount)
    var ledger = ExpansionLedger(policy: policy)
    var declared: Int64 = 0
    var files = 0
    for record in directory.records {
      let entry = record.effectiveName
      try checkAgreement(record, archive: name)
      if record.isEncrypted {
        throw PackagingError(.encryptedEntry, "entry \(entry.display) is encrypted")
      }
      let admission = try ledger.admit(entry, kind: record.kind)
      guard case .expand = admission, record.kind == .file || record.kind == .symbolicLink else {
        continue
      }
      files += 1
      let (sum, overflow) = declared.addingReportingOverflow(record.uncompressedSize)
      if overflow || sum > policy.maxTotalBytes {
        throw PackagingError(
          .expansionTooLarge,
          "entry \(entry.display) brings the declared expanded size past the limit of \(policy.maxTotalBytes) bytes"
        )
      }
      declared = sum
      if policy.exceedsRatio(expanded: record.uncompressedSize, compressed: record.compressedSize) {
        throw PackagingError(
          .compressionRatio,
          "entry \(entry.display) declares \(record.uncompressedSize) bytes from \(record.compressedSize) compressed, past the ratio limit of \(Int(policy.maxCompressionRatio))"
        )
      }
    }
    try checkOverlaps(directory, archive: name)
    return Summary(
      entryCount: directory.records.count, declaredBytes: declared, fileCount: files)
  }

  /// Refuses a local header that disagrees with its central record.
  private static func checkAgreement(_ record: ZipCentralDirectory.Record, archive: String) throws {
    let entry = record.effectiveName
    func mismatch(_ what: String) -> PackagingError {
      PackagingError(
        .headerMismatch,
        "entry \(entry.display): the local header's \(what) disagrees with the central directory")
    }
    if record.localName != record.rawName {
      throw mismatch("name \(EntryName(bytes: record.localName).display)")
    }
    if record.localUnicodeName != record.unicodeName { throw mismatch("Unicode path") }
    if record.localMethod != record.method { throw mismatch("compression method") }
    if record.localFlags & 1 != record.flags & 1 { throw mismatch("encryption flag") }
    // With bit 3 set, the sizes follow the data in a descriptor and the local fields may be 0.
    if record.localFlags & 0x8 == 0 {
      if record.localCRC32 != record.crc32 { throw mismatch("CRC-32") }
      if record.localCompressedSize != record.compressedSize { throw mismatch("compressed size") }
      if record.localUncompressedSize != record.uncompressedSize { throw mismatch("size") }
    } else {
      if record.localCompressedSize != 0 && record.localCompressedSize != record.compressedSize {
        throw mismatch("compressed size")
      }
      if record.localUncompressedSize != 0
        && record.localUncompressedSize != record.uncompressedSize
      {
        throw mismatch("size")
      }
    }
  }

  /// Refuses entries whose `[local header, end of data)` spans overlap.
  private static func checkOverlaps(_ directory: ZipCentralDirectory, archive: String) throws {
    let spans = directory.records.map {
      (start: $0.localHeaderOffset, end: $0.dataOffset + $0.compressedSize, name: $0.effectiveName)
    }.sorted { $0.start < $1.start }
    for (earlier, later) in zip(spans, spans.dropFirst()) where later.start < earlier.end {
      throw PackagingError(
        .overlappingEntries,
        "entries \(earlier.name.display) and \(later.name.display) share compressed data (a zip bomb's overlapping entries)"
      )
    }
  }
}
