public import FoundationEssentials

/// Checks an archive without writing anything, like `unzip -t`, `7z t` and `gzip -t`, and
/// optionally compares it with a folder, like GNU tar's `--compare`.
///
/// The archive goes through the expansion's own readers and rules: every entry's data is
/// read to its end, so whatever the format can prove is checked (CRC-32 and sizes of zip
/// entries, the central directory against the local headers, gzip, xz and zstd trailers,
/// tar checksums and a complete tar end), and an archive `expand` would refuse (unsafe
/// names, links leaving the destination, bombs) fails here too, with the same error.
///
/// ```swift
/// let result = try ArchiveVerifier.verify(.file(archive), against: package)
/// for difference in result.differences { print(difference) }
/// ```
public enum ArchiveVerifier {
  /// Reads every entry of an archive through to its end, and compares the tree it would
  /// expand to with `folder` when one is given.
  ///
  /// The comparison unwraps the archive's one top folder as `expand` does (unless
  /// ``ExpansionPolicy/keepsTopFolder``), so an archive `folio pack` made of a package
  /// compares with that package. It checks kinds, sizes and bytes, permission bits,
  /// symbolic link targets and files' modification times to the second (within a second
  /// for zip, whose MS-DOS times have two-second steps); folders' times are not compared,
  /// as adding a file changes them.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - folder: The folder to compare with, or `nil` to check the archive alone.
  ///   - policy: The expansion's rules and limits the archive must pass.
  /// - Returns: What was read, and the differences from `folder` in path order.
  /// - Throws: ``PackagingError`` naming the first damaged or refused entry (the same error
  ///   `expand` would throw), or naming the folder when it cannot be read.
  public static func verify(
    _ input: ArchiveInput, against folder: URL? = nil, policy: ExpansionPolicy = .default
  ) throws -> ArchiveVerification {
    let source = try ArchiveOpener.open(input, policy: policy)
    let zipSummary = try ExpansionRun<VerificationTarget>.zipSummary(of: source, policy: policy)
    let target = VerificationTarget()
    var run = ExpansionRun(
      source: source, staging: target, policy: policy, reporter: nil, zipSummary: zipSummary)
    let top = try run.expandAll()
    let expanded = run.result(
      destination: folder ?? URL(fileURLWithPath: "/"), format: source.formatDescription)
    var result = ArchiveVerification(
      format: expanded.format, fileCount: expanded.fileCount,
      directoryCount: expanded.directoryCount, symbolicLinkCount: expanded.symbolicLinkCount,
      hardLinkCount: expanded.hardLinkCount, byteCount: target.byteCount)
    if let folder {
      result.comparedWithFolder = true
      let comparison = TreeComparison(
        items: target.items, top: top, timeTolerance: zipSummary == nil ? 0 : 1)
      result.differences = try comparison.differences(from: folder.path)
    }
    return result
  }
}
