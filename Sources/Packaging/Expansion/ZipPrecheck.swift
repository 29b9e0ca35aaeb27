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
    var ledger = ExpansionLedger(policy: policy)
    var declared: Int64 = 0
    var files = 0
    var spans: [Span] = []
    let directory = try ZipCentralDirectory.read(
      file, name: name, maxEntries: policy.maxEntryCount
    ) { index, record in
      let entry = record.effectiveName
      try checkAgreement(record, archive: name)
      if record.isEncrypted {
        throw PackagingError(.encryptedEntry, "entry \(entry.display) is encrypted")
      }
      spans.append(
        Span(
          start: record.localHeaderOffset, end: record.dataOffset + record.compressedSize,
          index: index))
      let admission = try ledger.admit(entry, kind: record.kind)
      guard case .expand = admission, record.kind == .file || record.kind == .symbolicLink else {
        return
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
    try checkOverlaps(spans, file: file, archive: name, policy: policy)
    return Summary(
      entryCount: directory.recordCount, declaredBytes: declared, fileCount: files)
  }

  /// Where one entry's local header and data lie: 24 bytes per entry.
  private struct Span {
    var start: Int64
    var end: Int64
    var index: Int
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
  private static func checkOverlaps(
    _ spans: [Span], file: RandomAccessFile, archive: String, policy: ExpansionPolicy
  ) throws {
    let sorted = spans.sorted { $0.start < $1.start }
    for (earlier, later) in zip(sorted, sorted.dropFirst()) where later.start < earlier.end {
      // Only now are the two names needed: read them again.
      var names: [Int: EntryName] = [:]
      try ZipCentralDirectory.read(file, name: archive, maxEntries: policy.maxEntryCount) {
        index, record in
        if index == earlier.index || index == later.index { names[index] = record.effectiveName }
      }
      let first = names[earlier.index]?.display ?? "#\(earlier.index + 1)"
      let second = names[later.index]?.display ?? "#\(later.index + 1)"
      throw PackagingError(
        .overlappingEntries,
        "entries \(first) and \(second) share compressed data (a zip bomb's overlapping entries)")
    }
  }
}
