/// The safety rules and limits an expansion enforces.
///
/// Safety is not optional: absolute names, `..` components, NUL and `\` in
/// names, links leaving the destination, writes through links, devices,
/// FIFOs, sockets and duplicate names are always refused. The policy holds
/// what a caller may tune: the limits that stop a zip bomb early, whether
/// names that collide by case or Unicode normalisation are allowed, and
/// whether macOS AppleDouble entries are skipped.
///
/// ```swift
/// var policy = ExpansionPolicy.default
/// policy.maxTotalBytes = 2 << 30
/// ```
public struct ExpansionPolicy: Hashable, Sendable {
  /// The most bytes all entries may expand to together (default 16 GiB).
  public var maxTotalBytes: Int64
  /// The most entries the archive may hold (default 1,000,000).
  public var maxEntryCount: Int
  /// How many times its compressed size an entry (zip) or the stream (tar) may expand.
  ///
  /// The default is 1,000 (DEFLATE cannot pass 1,032 without tricks); it is
  /// checked once more than ``ratioGraceBytes`` have been expanded.
  public var maxCompressionRatio: Double
  /// Expanded bytes below which the ratio is not checked, so small runs of
  /// zeros do not trip it (default 1 MiB).
  public var ratioGraceBytes: Int64
  /// The longest entry name in bytes (default 1,024; Linux allows 4,096).
  public var maxNameLength: Int
  /// The longest single name component in bytes (default 255, as most file systems).
  public var maxComponentLength: Int
  /// Whether names that differ only by case or Unicode normalisation may
  /// both be expanded (default `false`: such a package cannot survive a trip
  /// through macOS or Windows).
  public var allowsNameCollisions: Bool
  /// Whether `__MACOSX/` folders and `._name` AppleDouble files are skipped
  /// (default `true`; skipped entries are listed in the result).
  public var skipsAppleDouble: Bool
  /// Whether an archive whose entries all sit in one top folder expands that
  /// folder *inside* the destination (`true`) rather than *as* the
  /// destination (default `false`, so `Notebook.zip` holding
  /// `Notebook.examplenotebook/…` gives back the package itself).
  public var keepsTopFolder: Bool
  /// The most bytes a zip or 7-Zip archive read from a stream (a pipe, or inside a
  /// compression) may hold (default 4 GiB).
  ///
  /// Such an archive is copied to a temporary file before it is read (its directory is at
  /// its end), so a stream that never ends would otherwise fill the disk first.
  public var maxInputSize: Int64 = 4 << 30
  /// How zip names without the UTF-8 flag are read (default
  /// ``ZipNameEncoding/specification``: UTF-8 when they are, else CP437).
  public var nameEncoding: ZipNameEncoding = .specification
  /// Whether the expanded tree is flushed to disk before it is renamed into place.
  ///
  /// The default is `true`: after a crash the destination holds either the old
  /// tree or the whole new one, never empty files. When the machine holds
  /// little unwritten data besides the expansion's own (64 MiB more at most),
  /// the file system is flushed once at the end (`syncfs`), that little
  /// included; otherwise only what the expansion wrote is flushed (each file,
  /// in parallel, then each folder), so other programs' data is not waited for.
  public var flushesBeforeCommit: Bool
  /// Which entries are expanded (default: all); the others are read, so
  /// checksums are still verified, but not written.
  public var selection: PathSelection
  /// How many threads write a zip's files.
  ///
  /// The default, `nil`, is the processors this process may use. With 1, everything happens on the calling thread. What is written, and
  /// which error a bad archive gives, do not depend on the number. A tar is decoded
  /// in order on the calling thread whatever the number.
  public var jobs: Int?
  /// Whether the entries' `user.*` extended attributes are set (default `true`).
  ///
  /// They come from tar's pax records, and from a zip's AppleDouble `__MACOSX/…/._name`
  /// entries folded back onto `name` (with ``skipsAppleDouble``). `security.*`,
  /// `trusted.*` and `system.*` are never set, whoever runs the expansion.
  public var restoresExtendedAttributes = true
  /// Whether POSIX ACLs are set on what is written (default `false`, as GNU tar without
  /// `--acls`).
  public var restoresACLs = false

  /// Creates a policy; every parameter defaults to the value of ``default``.
  ///
  /// - Parameters:
  ///   - maxTotalBytes: The most bytes all entries may expand to.
  ///   - maxEntryCount: The most entries.
  ///   - maxCompressionRatio: The most an entry or stream may expand.
  ///   - ratioGraceBytes: Expanded bytes below which the ratio is not checked.
  ///   - maxNameLength: The longest entry name in bytes.
  ///   - maxComponentLength: The longest name component in bytes.
  ///   - allowsNameCollisions: Whether case or normalisation collisions are allowed.
  ///   - skipsAppleDouble: Whether AppleDouble entries are skipped.
  ///   - keepsTopFolder: Whether a single top folder stays inside the destination.
  ///   - flushesBeforeCommit: Whether the tree is flushed to disk before the rename.
  ///   - selection: Which entries are expanded.
  ///   - jobs: How many threads write a zip's files, or `nil` for the processors available.
  public init(
    maxTotalBytes: Int64 = 16 << 30, maxEntryCount: Int = 1_000_000,
    maxCompressionRatio: Double = 1_000, ratioGraceBytes: Int64 = 1 << 20,
    maxNameLength: Int = 1_024, maxComponentLength: Int = 255,
    allowsNameCollisions: Bool = false, skipsAppleDouble: Bool = true,
    keepsTopFolder: Bool = false, flushesBeforeCommit: Bool = true,
    selection: PathSelection = .everything, jobs: Int? = nil
  ) {
    self.maxTotalBytes = maxTotalBytes
    self.maxEntryCount = maxEntryCount
    self.maxCompressionRatio = maxCompressionRatio
    self.ratioGraceBytes = ratioGraceBytes
    self.maxNameLength = maxNameLength
    self.maxComponentLength = maxComponentLength
    self.allowsNameCollisions = allowsNameCollisions
    self.skipsAppleDouble = skipsAppleDouble
    self.keepsTopFolder = keepsTopFolder
    self.flushesBeforeCommit = flushesBeforeCommit
    self.selection = selection
    self.jobs = jobs
  }

  /// The defaults: 16 GiB, a million entries, ratio 1,000, names of 1,024
  /// bytes (255 per component), collisions refused, AppleDouble skipped.
  public static let `default` = ExpansionPolicy()

  /// The permission bits an expanded file or folder gets from an entry's mode:
  /// the entry's bits without setuid, setgid, sticky, group write and other write.
  ///
  /// - Parameter mode: The entry's mode (type bits are ignored).
  /// - Returns: The bits to apply.
  public static func permissions(fromEntryMode mode: UInt32) -> UInt32 {
    mode & 0o755
  }

  /// Whether `expanded` bytes from `compressed` bytes passes the ratio limit.
  ///
  /// - Parameters:
  ///   - expanded: Bytes produced so far.
  ///   - compressed: Compressed bytes consumed for them.
  /// - Returns: `true` when the ratio is over the limit (and past the grace).
  func exceedsRatio(expanded: Int64, compressed: Int64) -> Bool {
    guard expanded > ratioGraceBytes else { return false }
    return Double(expanded) > maxCompressionRatio * Double(max(compressed, 1))
  }
}
