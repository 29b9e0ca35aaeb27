import Synchronization

/// The byte and ratio budgets of one expansion, charged as data is written, for every
/// format.
///
/// Two measures, per entry and in total:
///
/// - **Bytes**: the logical size written (holes of sparse entries included)
///   may not pass ``ExpansionPolicy/maxTotalBytes``.
/// - **Ratio**: data bytes written (holes not counted) may not pass
///   ``ExpansionPolicy/maxCompressionRatio`` times the compressed bytes
///   consumed for them, once past ``ExpansionPolicy/ratioGraceBytes``. In
///   total, consumption is the archive's *distinct* bytes (the furthest
///   offset read), so a format that reads one stretch for many entries (ISO
///   9660 files sharing an extent) cannot pass the limit by reading it
///   again. Per entry, it is the entry's compressed size when the format
///   records one (zip), else the bytes read while the entry was expanded
///   plus ``readAheadAllowance`` (libarchive reads ahead, so a small entry
///   may be decoded from bytes read for the one before).
///
/// The totals are shared: one budget may be charged from several threads at
/// once (parallel zip extraction), each thread keeping its entries' own
/// counts in an ``Entry``.
final class ExpansionBudget: Sendable {
  /// Compressed bytes a libarchive entry may be decoded from without having read them
  /// itself: one read-ahead window.
  static let readAheadAllowance: Int64 = 256 << 10

  let policy: ExpansionPolicy
  private let totals = Mutex<(logical: Int64, data: Int64)>((0, 0))

  /// Creates a budget.
  ///
  /// - Parameter policy: The limits.
  init(policy: ExpansionPolicy) { self.policy = policy }

  /// Bytes written so far (holes included).
  var logicalBytes: Int64 { totals.withLock { $0.logical } }

  /// One entry's counts.
  struct Entry {
    /// The entry, for messages.
    let name: EntryName
    /// The compressed size its format records, if any.
    let compressedSize: Int64?
    /// Consumption when the entry began (libarchive formats).
    let consumedAtStart: Int64
    fileprivate(set) var logical: Int64 = 0
    fileprivate(set) var data: Int64 = 0
  }

  /// Starts an entry's counts.
  ///
  /// - Parameters:
  ///   - name: The entry.
  ///   - compressedSize: Its recorded compressed size, if its format has one.
  ///   - consumed: The source's bytes consumed so far.
  /// - Returns: The entry's counts.
  func start(_ name: EntryName, compressedSize: Int64?, consumed: Int64) -> Entry {
    Entry(name: name, compressedSize: compressedSize, consumedAtStart: consumed)
  }

  /// Refuses an entry whose declared size cannot fit in what is left.
  ///
  /// - Parameters:
  ///   - name: The entry.
  ///   - size: Its declared size.
  /// - Throws: ``PackagingError`` (`expansion-too-large`).
  func checkDeclared(_ name: EntryName, size: Int64) throws {
    if size > policy.maxTotalBytes - logicalBytes { throw tooLarge(name) }
  }

  /// Charges bytes an entry wrote.
  ///
  /// - Parameters:
  ///   - entry: The entry's counts.
  ///   - logical: Growth of its logical size (data and holes).
  ///   - data: Data bytes written.
  ///   - consumed: The source's bytes consumed so far (all reads).
  ///   - distinctConsumed: The source's distinct bytes consumed so far.
  /// - Throws: ``PackagingError``: `expansion-too-large`, or `compression-ratio` naming
  ///   the entry and the figures.
  func charge(
    _ entry: inout Entry, logical: Int64, data: Int64, consumed: Int64, distinctConsumed: Int64
  ) throws {
    entry.logical += logical
    entry.data += data
    let (total, totalData) = totals.withLock { totals in
      totals.logical += logical
      totals.data += data
      return totals
    }
    if total > policy.maxTotalBytes { throw tooLarge(entry.name) }
    let entryCompressed =
      entry.compressedSize ?? (consumed - entry.consumedAtStart + Self.readAheadAllowance)
    if policy.exceedsRatio(expanded: entry.data, compressed: entryCompressed) {
      throw PackagingError(
        .compressionRatio,
        "entry \(entry.name.display): \(entry.data) bytes expanded from \(entryCompressed) compressed, past the ratio limit of \(Int(policy.maxCompressionRatio))"
      )
    }
    if policy.exceedsRatio(expanded: totalData, compressed: distinctConsumed) {
      throw PackagingError(
        .compressionRatio,
        "entry \(entry.name.display) takes the archive to \(totalData) bytes expanded from \(distinctConsumed) compressed, past the ratio limit of \(Int(policy.maxCompressionRatio))"
      )
    }
  }

  private func tooLarge(_ name: EntryName) -> PackagingError {
    PackagingError(
      .expansionTooLarge,
      "entry \(name.display) would take the expansion past the limit of \(policy.maxTotalBytes) bytes"
    )
  }
}
