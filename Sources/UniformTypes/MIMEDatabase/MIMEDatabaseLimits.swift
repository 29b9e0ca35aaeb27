/// Bounds on what a shared MIME-info database may hold.
///
/// A hostile or broken file costs bounded time and memory: what goes past a bound is left
/// out and reported.
///
/// The defaults are generous for real databases (freedesktop.org.xml 2.2 holds 851 types,
/// 1,136 globs, 1,154 matches, offsets up to 32,769) and small enough that name and content
/// lookups stay fast.
public struct MIMEDatabaseLimits: Sendable, Hashable {
  /// The largest source file read, in bytes.
  public var maximumFileSize: Int
  /// The most types, over all files.
  public var maximumTypes: Int
  /// The most globs, over all files.
  public var maximumGlobs: Int
  /// The most globs with wildcards other than a leading `*` (matched one by one, not by
  /// hash), over all files.
  public var maximumWildcardGlobs: Int
  /// The longest glob pattern, in bytes.
  public var maximumPatternLength: Int
  /// The most `<match>` elements, over all files.
  public var maximumMatches: Int
  /// The deepest nesting of `<match>` elements.
  public var maximumMatchDepth: Int
  /// The longest match value, in bytes.
  public var maximumValueLength: Int
  /// The furthest byte a match may read: content identification reads at most this many
  /// leading bytes of a file.
  public var maximumContentExtent: Int
  /// The longest comment, acronym or name kept, in bytes.
  public var maximumTextLength: Int
  /// The most diagnostics reported per file (the rest are counted in one last diagnostic).
  public var maximumDiagnosticsPerFile: Int

  /// Creates limits.
  ///
  /// - Parameters:
  ///   - maximumFileSize: The largest source file, in bytes.
  ///   - maximumTypes: The most types.
  ///   - maximumGlobs: The most globs.
  ///   - maximumWildcardGlobs: The most globs matched one by one.
  ///   - maximumPatternLength: The longest pattern, in bytes.
  ///   - maximumMatches: The most `<match>` elements.
  ///   - maximumMatchDepth: The deepest `<match>` nesting.
  ///   - maximumValueLength: The longest match value, in bytes.
  ///   - maximumContentExtent: The furthest byte a match may read.
  ///   - maximumTextLength: The longest text kept, in bytes.
  ///   - maximumDiagnosticsPerFile: The most diagnostics per file.
  public init(
    maximumFileSize: Int = 64 << 20, maximumTypes: Int = 20_000, maximumGlobs: Int = 200_000,
    maximumWildcardGlobs: Int = 1_000, maximumPatternLength: Int = 255,
    maximumMatches: Int = 50_000, maximumMatchDepth: Int = 16, maximumValueLength: Int = 1_024,
    maximumContentExtent: Int = 64 << 10, maximumTextLength: Int = 4_096,
    maximumDiagnosticsPerFile: Int = 50
  ) {
    self.maximumFileSize = maximumFileSize
    self.maximumTypes = maximumTypes
    self.maximumGlobs = maximumGlobs
    self.maximumWildcardGlobs = maximumWildcardGlobs
    self.maximumPatternLength = maximumPatternLength
    self.maximumMatches = maximumMatches
    self.maximumMatchDepth = maximumMatchDepth
    self.maximumValueLength = maximumValueLength
    self.maximumContentExtent = maximumContentExtent
    self.maximumTextLength = maximumTextLength
    self.maximumDiagnosticsPerFile = maximumDiagnosticsPerFile
  }

  /// The default limits.
  public static let `default` = MIMEDatabaseLimits()
}
