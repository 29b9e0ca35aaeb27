import ProgressReporting

/// What a pack's progress counts against: the walk's entries and bytes once they are known,
/// and the AppleDouble entries, which no walk counts, as they are written.
///
/// A fresh pack knows its totals before it writes (its counting walk); an update walks while
/// it writes, so until its walk ends its progress has no total rather than one that the
/// entries already written would pass.
struct PackProgressTotals {
  private let reporter: ProgressManager
  /// A tar stores a hard-linked file's bytes once; a zip, under every name.
  private let storesHardLinks: Bool
  /// Whether the package folder itself is an entry.
  private let keepParent: Bool
  /// The walk's totals, once known.
  private(set) var walk: PackageWalker.Totals?
  /// The AppleDouble entries written before the walk's totals were known.
  private var appleDoubles = (units: 0, files: 0, bytes: 0)

  init(reporter: ProgressManager, storesHardLinks: Bool, keepParent: Bool) {
    self.reporter = reporter
    self.storesHardLinks = storesHardLinks
    self.keepParent = keepParent
  }

  /// Leaves the progress without a total until ``publish(_:)``: for a walk that runs while
  /// the entries are written.
  func clearTotal() {
    reporter.setCounts { _, total in total = nil }
  }

  /// Sets the totals from the walk's, with the AppleDouble entries written so far.
  mutating func publish(_ totals: PackageWalker.Totals) {
    walk = totals
    let byteTotal = storesHardLinks ? totals.uniqueBytes : totals.allBytes
    let entryTotal = totals.entries - (keepParent ? 0 : 1)
    let extra = appleDoubles
    reporter.setCounts { _, total in total = Int(clamping: byteTotal) + entryTotal + extra.units }
    reporter.totalFileCount += totals.files + extra.files
    reporter.totalByteCount += UInt64(clamping: byteTotal) + UInt64(extra.bytes)
  }

  /// Counts an AppleDouble entry of `bytes` bytes about to be written.
  mutating func countAppleDouble(bytes: Int) {
    guard walk != nil else {
      appleDoubles.units += bytes + 1
      appleDoubles.files += 1
      appleDoubles.bytes += bytes
      return
    }
    reporter.setCounts { _, total in total = total.map { $0 + bytes + 1 } }
    reporter.totalFileCount += 1
    reporter.totalByteCount += UInt64(bytes)
  }
}
