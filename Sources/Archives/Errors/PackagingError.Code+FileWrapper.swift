extension PackagingErrorDomain.Code {
  // MARK: File wrappers

  /// A file a lazily read wrapper stands for was removed or moved before its bytes were read.
  public static let fileVanished = Self("file-vanished")
  /// A file a lazily read wrapper stands for was changed after the wrapper was read.
  public static let fileReplaced = Self("file-replaced")
  /// A file or folder could not be read (permissions, I/O, an unsupported kind of item).
  public static let fileUnreadable = Self("file-unreadable")
  /// A file wrapper could not be written.
  public static let fileWriteFailed = Self("file-write-failed")
  /// A file wrapper was asked to write over an existing folder without replacing it.
  public static let fileExists = Self("file-exists")
}

extension PackagingErrorDomain.Code {
  /// An archive read into a file wrapper holds more bytes than the wrapper keeps in memory.
  public static let archiveTooLargeForMemory = Self("archive-too-large-for-memory")
}
