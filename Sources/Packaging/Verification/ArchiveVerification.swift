/// What ``ArchiveVerifier`` found in an archive that read through to its end.
public struct ArchiveVerification: Hashable, Sendable {
  /// The archive's format and compression, as `folio list` names them.
  public var format: String
  /// Regular files read (hard links not counted).
  public var fileCount: Int
  /// Folders named by the archive.
  public var directoryCount: Int
  /// Symbolic links read.
  public var symbolicLinkCount: Int
  /// Hard links read.
  public var hardLinkCount: Int
  /// Bytes of file data read and checked.
  public var byteCount: Int64
  /// Whether a folder was compared against.
  public var comparedWithFolder: Bool
  /// How the archive and the folder disagree, in path order; empty when they match or when
  /// no folder was given.
  public var differences: [ArchiveDifference]

  /// Creates a result.
  ///
  /// - Parameters:
  ///   - format: The format and compression.
  ///   - fileCount: Regular files read.
  ///   - directoryCount: Folders named.
  ///   - symbolicLinkCount: Symbolic links read.
  ///   - hardLinkCount: Hard links read.
  ///   - byteCount: Bytes of file data read.
  ///   - comparedWithFolder: Whether a folder was compared against.
  ///   - differences: How the archive and the folder disagree.
  public init(
    format: String, fileCount: Int = 0, directoryCount: Int = 0, symbolicLinkCount: Int = 0,
    hardLinkCount: Int = 0, byteCount: Int64 = 0, comparedWithFolder: Bool = false,
    differences: [ArchiveDifference] = []
  ) {
    self.format = format
    self.fileCount = fileCount
    self.directoryCount = directoryCount
    self.symbolicLinkCount = symbolicLinkCount
    self.hardLinkCount = hardLinkCount
    self.byteCount = byteCount
    self.comparedWithFolder = comparedWithFolder
    self.differences = differences
  }
}
