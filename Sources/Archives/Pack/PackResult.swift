public import FoundationEssentials

/// What a pack wrote.
public struct PackResult: Sendable, Hashable {
  /// The archive written.
  public var output: URL
  /// Its format.
  public var format: ArchiveFormat
  /// Entries of every kind in the archive.
  public var entryCount: Int
  /// Folder entries.
  public var directoryCount: Int
  /// Regular file entries (hard link entries included).
  public var fileCount: Int
  /// Symbolic link entries.
  public var symbolicLinkCount: Int
  /// Tar hard link entries (a zip stores each linked name in full).
  public var hardLinkCount: Int
  /// Zip entries stored rather than deflated.
  public var storedEntryCount: Int
  /// File bytes read from the package.
  public var byteCount: Int64
  /// The archive's size.
  public var archiveSize: Int64
  /// Names written that differ only by case or Unicode normalisation, in the order met:
  /// `folio expand` refuses such an archive unless told to allow them (on macOS and
  /// Windows only one of each pair can exist).
  public var nameCollisions: [NameCollision] = []
  /// Files whose compressed bytes were copied from ``PackOptions/previousArchive``.
  public var reusedEntryCount = 0
}

/// Two names in one archive that differ only by case or Unicode normalisation.
public struct NameCollision: Sendable, Hashable {
  /// The name written first.
  public var first: String
  /// The name that collides with it.
  public var second: String

  /// Creates a collision.
  ///
  /// - Parameters:
  ///   - first: The name written first.
  ///   - second: The name that collides with it.
  public init(first: String, second: String) {
    self.first = first
    self.second = second
  }
}
