import FolioSystem
public import UniformTypes

/// How an ``ArchiveWriter`` compresses entries and stamps their metadata.
public struct ArchiveWriterOptions: Sendable {
  /// The compression level, or `nil` for the format's default.
  ///
  /// For zip, 0 stores every entry. See ``ArchiveFormat/compressionLevels``.
  public var compressionLevel: Int?
  /// How zip entries are compressed; tar formats compress the whole stream
  /// and ignore this.
  public var compression: EntryCompression
  /// Whether to write byte-identical archives for identical input: owner and
  /// group 0 without names, whole-second times, nothing that varies by run.
  public var reproducible: Bool
  /// A `SOURCE_DATE_EPOCH`: modification times later than this are clamped
  /// to it (only when ``reproducible`` is on).
  public var sourceDateEpoch: Int64?
  /// The registry that types file names, to store already-compressed content.
  public var typeRegistry: TypeRegistry
  /// How many threads compress, or `nil` for the processors the process may use.
  ///
  /// They compress zip entries, gzip blocks and the zstd and xz streams, and
  /// read plain tar's small files ahead of libarchive. The archive's bytes do
  /// not depend on the number (reproducible xz uses one thread).
  public var jobs: Int?

  /// Creates options.
  ///
  /// - Parameters:
  ///   - compressionLevel: The level, or `nil` for the format's default.
  ///   - compression: How zip entries are compressed.
  ///   - reproducible: Whether to write byte-identical archives.
  ///   - sourceDateEpoch: The latest modification time to record.
  ///   - typeRegistry: The registry that types file names: by default the process's, with
  ///     every declaration the program registered.
  ///   - jobs: How many threads compress (zip, compressed tar) or read files ahead (tar),
  ///     or `nil` for the processors available.
  public init(
    compressionLevel: Int? = nil, compression: EntryCompression = .automatic,
    reproducible: Bool = false, sourceDateEpoch: Int64? = nil,
    typeRegistry: TypeRegistry = .default, jobs: Int? = nil
  ) {
    self.jobs = jobs
    self.compressionLevel = compressionLevel
    self.compression = compression
    self.reproducible = reproducible
    self.sourceDateEpoch = sourceDateEpoch
    self.typeRegistry = typeRegistry
  }
}

/// Whether a zip entry's data is deflated or stored.
public enum EntryCompression: String, Sendable, Hashable, CaseIterable {
  /// Store files whose type is already compressed (images, audio, video,
  /// archives) or whose sampled chunks do not shrink; deflate the rest.
  case automatic
  /// Deflate every file.
  case deflate
  /// Store every file.
  case store
}

extension ArchiveWriterOptions {
  /// The number of threads to use: ``jobs``, or the processors available.
  var resolvedJobs: Int { ProcessorCount.jobs(jobs) }
}
