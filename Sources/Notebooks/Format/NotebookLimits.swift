/// What a notebook package may hold before opening it is refused, so a hostile
/// `metadata.json` cannot take the memory of a command that opens it.
///
/// A real notebook's metadata is a title and a few bytes per page; the defaults leave
/// room for a notebook of a hundred thousand pages.
public struct NotebookLimits: Sendable, Hashable {
  /// The default size limit of `metadata.json`: 8 MiB.
  public static let defaultMaximumMetadataSize: Int64 = 8 << 20
  /// The default title limit: 64 KiB of UTF-8.
  public static let defaultMaximumTitleLength = 64 << 10
  /// The default page order limit: 200,000 entries.
  public static let defaultMaximumPageOrderCount = 200_000
  /// How many repeated `pageOrder` entries are warned about one by one before the rest are
  /// counted in one warning.
  public static let defaultMaximumRepeatWarnings = 10

  /// The limits ``NotebookPackage`` applies unless told otherwise.
  public static let `default` = NotebookLimits()

  /// The largest `metadata.json` read, in bytes; checked before it is read.
  public var maximumMetadataSize: Int64
  /// The longest title accepted, in bytes of UTF-8.
  public var maximumTitleLength: Int
  /// The most entries `pageOrder` may list (repeats included).
  public var maximumPageOrderCount: Int
  /// How many repeated entries get a warning of their own.
  public var maximumRepeatWarnings: Int

  /// Creates limits.
  ///
  /// - Parameters:
  ///   - maximumMetadataSize: The largest `metadata.json`, in bytes.
  ///   - maximumTitleLength: The longest title, in bytes of UTF-8.
  ///   - maximumPageOrderCount: The most `pageOrder` entries.
  ///   - maximumRepeatWarnings: How many repeated entries are warned about one by one.
  public init(
    maximumMetadataSize: Int64 = NotebookLimits.defaultMaximumMetadataSize,
    maximumTitleLength: Int = NotebookLimits.defaultMaximumTitleLength,
    maximumPageOrderCount: Int = NotebookLimits.defaultMaximumPageOrderCount,
    maximumRepeatWarnings: Int = NotebookLimits.defaultMaximumRepeatWarnings
  ) {
    self.maximumMetadataSize = maximumMetadataSize
    self.maximumTitleLength = maximumTitleLength
    self.maximumPageOrderCount = maximumPageOrderCount
    self.maximumRepeatWarnings = maximumRepeatWarnings
  }
}
