public import FoundationEssentials

/// What an expansion did.
public struct ExpansionResult: Hashable, Sendable {
  /// Where the expanded tree now is.
  public var destination: URL
  /// The archive's format and compression as libarchive names them
  /// (`POSIX pax interchange format, gzip`).
  public var format: String
  /// Regular files written (hard links not counted).
  public var fileCount: Int
  /// Folders named by the archive.
  public var directoryCount: Int
  /// Symbolic links created.
  public var symbolicLinkCount: Int
  /// Hard links created.
  public var hardLinkCount: Int
  /// Bytes written to files.
  public var byteCount: Int64
  /// Entries not written because they are macOS metadata (`__MACOSX/`, `._name`).
  public var skippedEntries: [EntryName]
  /// What the archive does that was read as peers read it (Windows separators), in order.
  public var warnings: [ArchiveWarning]
  /// With ``ReplacePolicy/update``: files kept as they were because their bytes did not change.
  public var unchangedFileCount: Int
  /// Whether an existing destination was replaced (or updated).
  public var replacedExisting: Bool
  /// With ``ReplacePolicy/update``: what the destination held that the archive no longer has.
  ///
  /// The files and links, relative to the destination and sorted; they are gone after the
  /// update. Found while the destination's lock is held, in the tree that was swapped in.
  public var removedPaths: [String] = []
  /// When the archive's one top folder became the destination, its name in the archive.
  public var unwrappedTopFolder: String?
  /// When the destination was given as a symbolic link, that link; ``destination`` is
  /// the folder it points at, which was written (the link itself is left as it was).
  public var destinationLink: URL?

  /// Creates a result.
  ///
  /// - Parameters:
  ///   - destination: Where the tree now is.
  ///   - format: The archive's format and compression.
  ///   - fileCount: Regular files written.
  ///   - directoryCount: Folders named by the archive.
  ///   - symbolicLinkCount: Symbolic links created.
  ///   - hardLinkCount: Hard links created.
  ///   - byteCount: Bytes written.
  ///   - skippedEntries: Entries skipped as macOS metadata.
  ///   - warnings: What was read as peers read it.
  ///   - unchangedFileCount: Files kept as they were (update).
  ///   - replacedExisting: Whether an existing destination was replaced.
  ///   - unwrappedTopFolder: The top folder that became the destination.
  public init(
    destination: URL, format: String, fileCount: Int = 0, directoryCount: Int = 0,
    symbolicLinkCount: Int = 0, hardLinkCount: Int = 0, byteCount: Int64 = 0,
    skippedEntries: [EntryName] = [], warnings: [ArchiveWarning] = [], unchangedFileCount: Int = 0,
    replacedExisting: Bool = false,
    unwrappedTopFolder: String? = nil
  ) {
    self.destination = destination
    self.format = format
    self.fileCount = fileCount
    self.directoryCount = directoryCount
    self.symbolicLinkCount = symbolicLinkCount
    self.hardLinkCount = hardLinkCount
    self.byteCount = byteCount
    self.skippedEntries = skippedEntries
    self.warnings = warnings
    self.unchangedFileCount = unchangedFileCount
    self.replacedExisting = replacedExisting
    self.unwrappedTopFolder = unwrappedTopFolder
  }
}
