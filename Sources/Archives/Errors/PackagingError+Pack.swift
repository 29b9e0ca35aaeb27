extension PackagingErrorDomain.Code {
  /// The package (or folder) to pack does not exist or is not a folder.
  public static let notADirectory = Self("not-a-directory")
  /// A socket, device or FIFO inside the package: it cannot go into an archive.
  public static let unsupportedFileType = Self("unsupported-file-type")
  /// A symbolic link that points outside the package (refused unless allowed).
  public static let externalSymlink = Self("external-symlink")
  /// A file changed size while it was being packed.
  public static let fileChanged = Self("file-changed")
  /// The output would be written inside the package being packed.
  public static let outputInsideSource = Self("output-inside-source")
  /// The archive format or output name is not one Folio writes.
  public static let unknownFormat = Self("unknown-format")
  /// A compression level outside the format's range.
  public static let invalidLevel = Self("invalid-level")
  /// A system call on a file failed (open, read, stat, rename, fsync).
  public static let fileSystem = Self("file-system")
  /// A writer was used after its scope ended, or an entry path is not usable.
  public static let invalidEntry = Self("invalid-entry")
  /// The deflate library failed (could not allocate, or returned an unexpected status).
  public static let compressorFailed = Self("compressor-failed")
  /// A file or entry carries more extended attributes, or a larger value, than Folio keeps.
  public static let extendedAttributeLimit = Self("extended-attribute-limit")
  /// Reusing an earlier archive's entries was asked for a format other than zip.
  public static let updateNeedsZip = Self("update-needs-zip")
}
