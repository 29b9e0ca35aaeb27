extension PackagingErrorDomain.Code {
  /// libarchive reported a warning (`ARCHIVE_WARN`): partial success, treated as a failure.
  public static let archiveWarning = Self("archive-warning")
  /// libarchive could not complete an operation (`ARCHIVE_FAILED` or `ARCHIVE_RETRY`).
  public static let archiveFailed = Self("archive-failed")
  /// libarchive cannot go on with the archive (`ARCHIVE_FATAL`).
  public static let archiveFatal = Self("archive-fatal")
}
