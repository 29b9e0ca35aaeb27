public import FoundationEssentials

/// Lists an archive's entries as their headers describe them, like `bsdtar -tv`.
///
/// Listing applies no safety rule (a hostile archive lists fine, names
/// escaped by ``EntryName/display``), but a damaged archive is still an
/// error: a bad header, a truncated stream or a gzip trailer that does not
/// match the data. Memory stays flat: entries are handed over one at a time.
public enum ArchiveLister {
  /// Calls `body` with each entry, in archive order.
  ///
  /// - Parameters:
  ///   - archive: The archive file.
  ///   - body: Called once per entry.
  /// - Returns: The archive's format and compression as libarchive names them.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, …), or what `body` throws.
  @discardableResult
  public static func forEachEntry(
    in archive: URL, _ body: (ArchiveEntryInfo) throws -> Void
  ) throws -> String {
    try forEachEntry(in: .file(archive), body)
  }

  /// Calls `body` with each entry of an archive in a file or on standard input.
  ///
  /// A zip on a pipe is copied to an unnamed temporary file first (its central
  /// directory is at its end), within `maxInputSize` and ``ExpansionPolicy/default``'s
  /// byte limit.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - nameEncoding: How zip names without the UTF-8 flag are read.
  ///   - maxInputSize: The most bytes a zip or 7-Zip archive read from a stream may hold.
  ///   - body: Called once per entry.
  /// - Returns: The archive's format and compression.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, `input-too-large`, …),
  ///   or what `body` throws.
  @discardableResult
  public static func forEachEntry(
    in input: ArchiveInput, nameEncoding: ZipNameEncoding = .specification,
    maxInputSize: Int64 = ExpansionPolicy.default.maxInputSize,
    _ body: (ArchiveEntryInfo) throws -> Void
  ) throws -> String {
    var policy = ExpansionPolicy.default
    policy.nameEncoding = nameEncoding
    policy.maxInputSize = maxInputSize
    return try forEachEntry(in: input, policy: policy, body)
  }

  /// Calls `body` with each entry, reading within an expansion policy's limits.
  ///
  /// Listing writes nothing, but a compressed stream is still decoded: its bytes count
  /// against the policy's byte and ratio limits, and a zip read from a stream is copied
  /// within its input size limit. Its name encoding reads zip names; its safety rules,
  /// selection and other settings are not applied.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - policy: The limits (``ExpansionPolicy/maxTotalBytes``,
  ///     ``ExpansionPolicy/maxCompressionRatio``, ``ExpansionPolicy/maxInputSize``) and
  ///     the name encoding.
  ///   - body: Called once per entry.
  /// - Returns: The archive's format and compression.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, `input-too-large`,
  ///   `expansion-too-large`, `compression-ratio`, …), or what `body` throws.
  @discardableResult
  public static func forEachEntry(
    in input: ArchiveInput, policy: ExpansionPolicy, _ body: (ArchiveEntryInfo) throws -> Void
  ) throws -> String {
    try forEachEntry(in: input, policy: policy, warnings: { _ in }, body)
  }

  /// Calls `body` with each entry, reading within an expansion policy's limits, and
  /// `warnings` with what the archive does that was read as peers read it (bytes after a
  /// zip's end record, junk after a gzip stream, Windows separators), as an expansion
  /// reports them.
  ///
  /// - Parameters:
  ///   - input: The archive file, or standard input.
  ///   - policy: The limits and the name encoding.
  ///   - warnings: Called once, after the last entry, with the warnings in order (none
  ///     when the archive gave none).
  ///   - body: Called once per entry.
  /// - Returns: The archive's format and compression.
  /// - Throws: As ``forEachEntry(in:policy:_:)``.
  @discardableResult
  public static func forEachEntry(
    in input: ArchiveInput, policy: ExpansionPolicy,
    warnings: ([ArchiveWarning]) -> Void, _ body: (ArchiveEntryInfo) throws -> Void
  ) throws -> String {
    let source = try ArchiveOpener.open(input, policy: policy)
    var count = 0
    while let entry = try source.nextEntry() {
      count += 1
      try body(entry.info)
      try source.verifyData(of: entry)
    }
    try source.finish()
    if count == 0 {
      throw PackagingError(.emptyArchive, "'\(input.displayName)' holds no entries")
    }
    if !source.warnings.isEmpty { warnings(source.warnings) }
    return source.formatDescription
  }

  /// Every entry of an archive, in archive order.
  ///
  /// - Parameter archive: The archive file.
  /// - Returns: The entries.
  /// - Throws: ``PackagingError`` (`empty-archive`, `corrupt-archive`, …).
  public static func entries(of archive: URL) throws -> [ArchiveEntryInfo] {
    var entries: [ArchiveEntryInfo] = []
    try forEachEntry(in: archive) { entries.append($0) }
    return entries
  }
}
