public import FolioSystem
public import FoundationEssentials
public import UniformTypes

/// How ``Packer`` flattens a folder into an archive.
public struct PackOptions: Sendable {
  /// The archive format, or `nil` to take it from the output's file name.
  public var format: ArchiveFormat?
  /// The compression level, or `nil` for the format's default.
  public var compressionLevel: Int?
  /// How zip entries are compressed.
  ///
  /// `.automatic` (the default) stores files
  /// that are already compressed and deflates the rest; the command line
  /// switches to `.deflate` when `--level` is given, so the level is applied
  /// to every file.
  public var compression: EntryCompression
  /// Whether the archive's top folder is the package's own name (the
  /// default, as `ditto --keepParent`), so expanding gives the package back.
  public var keepParent: Bool
  /// Whether packing the same tree twice gives byte-identical archives:
  /// sorted entries, owner and group 0, whole-second times.
  public var reproducible: Bool
  /// A `SOURCE_DATE_EPOCH`: turns ``reproducible`` on and clamps later
  /// modification times to it.
  public var sourceDateEpoch: Int64?
  /// Whether symbolic links pointing outside the package are stored (as
  /// links, never followed) instead of refused.
  public var allowExternalSymlinks: Bool
  /// The registry that types file names: the output's format, and which
  /// files are already compressed.
  public var typeRegistry: TypeRegistry
  /// How many threads read and compress, or `nil` for the processors the process may use.
  ///
  /// See ``ArchiveWriterOptions/jobs``: the archive is the same whatever the number.
  public var jobs: Int?

  /// Which paths below the package are packed (default: all); an excluded
  /// folder is left out with everything in it.
  public var selection: PathSelection

  /// Whether extended attributes and POSIX ACLs are stored (default `true`): in tar as
  /// pax `SCHILY.xattr.NAME` and `SCHILY.acl.access`/`.default` records, in zip as
  /// macOS's AppleDouble `__MACOSX/…/._name` entries (the `user.` attributes only,
  /// under their macOS names).
  public var storesExtendedAttributes = true
  /// What packing does when the output exists (default ``ReplacePolicy/refuse``).
  ///
  /// ``ReplacePolicy/replace`` writes a new archive over it; ``ReplacePolicy/update``
  /// also reuses its entries (a zip only; see ``previousArchive``, which it defaults to the
  /// output). Either way the archive is moved into place only when complete.
  public var replacePolicy: ReplacePolicy = .refuse

  /// Whether a zip carries the attributes in AppleDouble `__MACOSX/…/._name` entries.
  ///
  /// `true` by default (it matters only with ``storesExtendedAttributes``); `false` packs
  /// a zip without them. A tar stores the attributes either way.
  public var storesAppleDouble = true
  /// An earlier zip of the package (usually the output itself) whose entries are reused.
  ///
  /// A file whose path, size, modification time and mode match an entry has that entry's
  /// compressed bytes copied instead of being compressed again, as Info-ZIP's `zip -u`
  /// does. Entries for files no longer in the package are dropped with the rest of the
  /// earlier archive. `nil` (the default), or a path where nothing exists, packs afresh;
  /// with ``replacePolicy`` ``ReplacePolicy/update``, `nil` means the output itself.
  ///
  /// The archive is the one a fresh pack writes when the earlier one was written by Folio
  /// with the same options (for example both ``reproducible``). Only zip supports it.
  public var previousArchive: URL? = nil
  /// With ``previousArchive``: whether a file's bytes are read and must match the entry's
  /// CRC-32 too before it is reused (slower; catches a change that kept size and time).
  public var reuseChecksBytes = false

  /// Creates options.
  ///
  /// - Parameters:
  ///   - format: The format, or `nil` to take it from the output's name.
  ///   - compressionLevel: The level, or `nil` for the default.
  ///   - compression: How zip entries are compressed.
  ///   - keepParent: Whether the package's name is the top folder.
  ///   - reproducible: Whether to write byte-identical archives.
  ///   - sourceDateEpoch: The latest modification time to record.
  ///   - allowExternalSymlinks: Whether to store links pointing outside.
  ///   - typeRegistry: The registry that types file names: by default the process's, with
  ///     every declaration the program registered.
  ///   - jobs: How many threads compress, or `nil` for the processors available.
  ///   - selection: Which paths below the package are packed.
  public init(
    format: ArchiveFormat? = nil, compressionLevel: Int? = nil,
    compression: EntryCompression = .automatic, keepParent: Bool = true,
    reproducible: Bool = false, sourceDateEpoch: Int64? = nil,
    allowExternalSymlinks: Bool = false, typeRegistry: TypeRegistry = .default, jobs: Int? = nil,
    selection: PathSelection = .everything
  ) {
    self.jobs = jobs
    self.format = format
    self.compressionLevel = compressionLevel
    self.compression = compression
    self.keepParent = keepParent
    self.reproducible = reproducible
    self.sourceDateEpoch = sourceDateEpoch
    self.allowExternalSymlinks = allowExternalSymlinks
    self.typeRegistry = typeRegistry
    self.selection = selection
  }
}
