extension PackagingErrorDomain.Code {
  /// A `--include`/`--exclude` glob cannot be parsed.
  public static let invalidPattern = Self("invalid-pattern")
  /// A path named for expansion is not in the archive, or nothing matched the selection.
  public static let entryNotFound = Self("entry-not-found")
  /// The file is no archive in any format libarchive reads.
  public static let notAnArchive = Self("not-an-archive")
}
