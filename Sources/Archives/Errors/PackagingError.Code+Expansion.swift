extension PackagingErrorDomain.Code {
  // MARK: Entry names and types (each names the entry and the rule)

  /// An entry name starts with `/` or a drive letter (`C:`).
  public static let absolutePath = Self("absolute-path")
  /// An entry name has a `..` component.
  public static let parentComponent = Self("parent-component")
  /// An entry name holds a NUL byte.
  public static let nulInName = Self("nul-in-name")
  /// An entry name uses `\` as a separator (zip archives written on Windows).
  public static let backslashInName = Self("backslash-in-name")
  /// An entry name is empty or names only the archive's root.
  public static let emptyName = Self("empty-name")
  /// An entry name is not valid UTF-8.
  public static let invalidNameEncoding = Self("invalid-name-encoding")
  /// A name encoding was asked for that this system's iconv does not know.
  public static let unsupportedNameEncoding = Self("unsupported-name-encoding")
  /// An entry name, or one of its components, is longer than the policy allows.
  public static let nameTooLong = Self("name-too-long")
  /// A symbolic or hard link points outside the destination (or to an absolute path).
  public static let linkOutsideDestination = Self("link-outside-destination")
  /// A hard link names no regular file expanded before it.
  public static let hardLinkTargetMissing = Self("hard-link-target-missing")
  /// An entry would be written through a symbolic link expanded before it.
  public static let writeThroughSymlink = Self("write-through-symlink")
  /// A device, FIFO or socket entry (never created by an expansion).
  public static let specialFileEntry = Self("special-file-entry")
  /// The same name appears twice in the archive.
  public static let duplicateEntry = Self("duplicate-entry")
  /// Two names differ only by case or Unicode normalisation.
  public static let nameCollision = Self("name-collision")
  /// An entry needs a folder where the archive put a file, or the reverse.
  public static let pathConflict = Self("path-conflict")

  // MARK: Limits

  /// The archive has more entries than the policy allows.
  public static let tooManyEntries = Self("too-many-entries")
  /// The expanded bytes would pass the policy's total.
  public static let expansionTooLarge = Self("expansion-too-large")
  /// A zip or 7-Zip archive read from a stream is larger than the copy it needs may be
  /// (``ExpansionPolicy/maxInputSize``).
  public static let inputTooLarge = Self("input-too-large")
  /// Data expands more than the policy's compression ratio (a zip bomb).
  public static let compressionRatio = Self("compression-ratio")

  // MARK: Damaged archives

  /// The archive is zero bytes long or has no entries.
  public static let emptyArchive = Self("empty-archive")
  /// The archive's structure or data is damaged: bad checksum or CRC, truncated data,
  /// a broken compression stream.
  public static let corruptArchive = Self("corrupt-archive")
  /// A zip's central directory cannot be read within the file's bounds.
  public static let malformedZip = Self("malformed-zip")
  /// Two zip entries share compressed bytes (a non-recursive zip bomb).
  public static let overlappingEntries = Self("overlapping-entries")
  /// A zip local header disagrees with the central directory (name, sizes, method).
  public static let headerMismatch = Self("header-mismatch")
  /// An entry is encrypted; Folio never expands encrypted entries.
  public static let encryptedEntry = Self("encrypted-entry")

  // MARK: Destination and coordination

  /// The output (an expansion's destination, a pack's archive) exists and the
  /// `ReplacePolicy` is `refuse`: the code every Folio writer gives this refusal.
  public static let outputExists = Self("output-exists")
  /// The destination exists and neither replacing nor updating was asked for.
  @available(*, deprecated, renamed: "outputExists")
  public static var destinationExists: Self { outputExists }
  /// The archive is the destination, or lies inside the destination that replacing or
  /// updating would remove (compared by device and inode).
  public static let archiveInsideDestination = Self("archive-inside-destination")
  /// Another process held the package's lock until the timeout.
  public static let lockTimeout = Self("lock-timeout")
}

extension PackagingErrorDomain.Code {
  /// A file, folder or link could not be created, written or moved in the destination.
  public static let destinationWriteFailed = Self("destination-write-failed")
  /// The archive file could not be opened or read.
  public static let archiveUnreadable = Self("archive-unreadable")
}

extension PackagingErrorDomain.Code {
  /// A decompressor could not run at all (out of memory, a library version mismatch),
  /// whatever the data.
  public static let decompressorFailed = Self("decompressor-failed")
}

extension PackagingErrorDomain.Code {
  /// The archive (or one entry) uses a compression Folio does not read (a zip method
  /// such as Deflate64 or PPMd, or too many nested layers).
  public static let unsupportedCompression = Self("unsupported-compression")
}
