/// Judges every entry of a checked zip against an expansion's rules before anything is
/// written: the names (through an ``ExpansionLedger``), encryption, compression methods,
/// and the declared sizes against the byte and ratio budgets.
///
/// A zip lists all its entries up front, so a bomb, a hostile name or an
/// unreadable method at the end is refused before the first file is
/// created. The same entries are then written, in the same order, by the
/// expansion (or by parallel workers).
enum ZipExpansionCheck {
  /// What the check learnt, for progress totals.
  struct Summary {
    /// The sum of declared sizes of the files that will be written.
    var declaredBytes: Int64
    /// Files and links that will be written.
    var fileCount: Int
    /// How many paths the check's ledger recorded, and their bytes: the expansion's ledger
    /// records the same ones and is made that large at once.
    var ledgerPaths = 0
    var ledgerPathBytes = 0
  }

  /// Runs every check.
  ///
  /// - Parameters:
  ///   - archive: The checked archive.
  ///   - policy: The limits.
  /// - Returns: Totals for progress.
  /// - Throws: ``PackagingError`` naming the entry and the rule.
  static func check(_ archive: ZipArchive, policy: ExpansionPolicy) throws -> Summary {
    var ledger = ExpansionLedger(policy: policy, reservingPaths: archive.entryCount)
    var declared: Int64 = 0
    var files = 0
    for index in 0..<archive.entryCount {
      let entry = archive.entry(at: index)
      if entry.isEncrypted {
        throw PackagingError(.encryptedEntry, "entry \(entry.name.display) is encrypted")
      }
      let admission = try ledger.admit(entry.name, kind: entry.kind)
      guard case .expand = admission, entry.kind == .file || entry.kind == .symbolicLink else {
        continue
      }
      if !entry.method.isSupported {
        throw PackagingError(
          .unsupportedCompression,
          "entry \(entry.name.display) is compressed with \(entry.method.refusalDescription)")
      }
      files += 1
      let (sum, overflow) = declared.addingReportingOverflow(entry.uncompressedSize)
      if overflow || sum > policy.maxTotalBytes {
        throw PackagingError(
          .expansionTooLarge,
          "entry \(entry.name.display) brings the declared expanded size past the limit of \(policy.maxTotalBytes) bytes"
        )
      }
      declared = sum
      if policy.exceedsRatio(expanded: entry.uncompressedSize, compressed: entry.compressedSize) {
        throw PackagingError(
          .compressionRatio,
          "entry \(entry.name.display) declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed, past the ratio limit of \(Int(policy.maxCompressionRatio))"
        )
      }
    }
    return Summary(
      declaredBytes: declared, fileCount: files, ledgerPaths: ledger.pathCount,
      ledgerPathBytes: ledger.pathBytes)
  }
}
