import FoundationEssentials

/// Reads an archive through to its end and checks everything its format can prove, without
/// writing anything: what `folio verify` does, as `unzip -t`, `7z t` and `gzip -t` do.
///
/// Every entry's data is read and checked as an expansion checks it (a zip's CRC-32 and
/// sizes against its central directory and local headers, a tar's header checksums and
/// data lengths, every gzip, xz or zstd trailer, a complete end), and the expansion's
/// rules and limits are applied too, so an archive that verifies is one `expand` writes.
/// Data is dropped as it is read: memory stays flat whatever the archive.
public enum ArchiveVerifier {
  /// What a verification found.
  public struct Result: Hashable, Sendable {
    /// The archive's format and compression (`POSIX pax interchange format, gzip`).
    public var format: String
    /// Regular files read.
    public var fileCount: Int
    /// Folders, symbolic and hard links.
    public var otherEntryCount: Int
    /// Bytes of file data read.
    public var byteCount: Int64
    /// What was read as peers read it, in order.
    public var warnings: [ArchiveWarning]
  }

  /// Verifies an archive.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - policy: The rules and limits, as for an expansion.
  /// - Returns: What was read.
  /// - Throws: ``PackagingError`` naming the first damaged (or refused) entry.
  public static func verify(_ input: ArchiveInput, policy: ExpansionPolicy = .default) throws
    -> Result
  {
    // Attributes are not set, so which ones would be is no finding.
    var policy = policy
    policy.restoresACLs = true
    let source = try ArchiveOpener.open(input, policy: policy)
    var run = try ExpansionRun(
      judging: source, staging: DiscardingTarget(), policy: policy, reporter: nil)
    _ = try run.expandAll()
    let result = run.result(destination: URL(fileURLWithPath: "/"), format: "")
    return Result(
      format: source.formatDescription, fileCount: result.fileCount,
      otherEntryCount: result.directoryCount + result.symbolicLinkCount + result.hardLinkCount,
      byteCount: result.byteCount,
      warnings: result.warnings.filter { $0.code != "extended-attribute-withheld" })
  }
}

/// An expansion target that keeps nothing: the data is read, checked and dropped.
final class DiscardingTarget: ExpansionTarget {
  final class File: ExpansionTargetFile {
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {}
    func extend(to length: Int64) throws {}
    func finish(
      permissions: UInt32, time: StagingFolder.Time?, attributes: [ExtendedAttribute]
    ) throws {}
  }

  private var written: Set<[String]> = []

  func makeDirectory(_ path: RelativePath, permissions: UInt32, time: StagingFolder.Time?) throws {
    written.insert(path.components)
  }
  func setRootAttributes(permissions: UInt32, time: StagingFolder.Time?) {}
  func createFile(_ path: RelativePath) throws -> File {
    written.insert(path.components)
    return File()
  }
  func link(_ path: RelativePath, to target: RelativePath) throws {
    written.insert(path.components)
  }
  func addSymbolicLink(_ path: RelativePath, target: [UInt8], time: StagingFolder.Time?) {}
  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofDirectory path: RelativePath) {}
  func setExtendedAttributes(_ attributes: [ExtendedAttribute], ofExisting path: RelativePath)
    -> Bool
  { written.contains(path.components) }
  var attributeWarnings: [ArchiveWarning] { [] }
}
