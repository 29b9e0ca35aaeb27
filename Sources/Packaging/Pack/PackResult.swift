public import Foundation

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
}
