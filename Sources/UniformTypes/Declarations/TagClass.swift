public import FolioSystem

/// A kind of tag a type declares: filename extension, MIME type, OSType, ….
///
/// Tag classes are themselves type identifiers (`public.filename-extension`),
/// compared case-insensitively. Declarations may use any tag class; the
/// registry indexes every one it sees.
public struct TagClass: Hashable, Sendable, CustomStringConvertible, Comparable {
  /// The tag class identifier.
  public let identifier: TypeIdentifier

  /// Creates a tag class.
  ///
  /// - Parameter identifier: The tag class identifier, such as `public.mime-type`.
  public init(_ identifier: TypeIdentifier) { self.identifier = identifier }

  /// `public.filename-extension`: extensions without the leading dot (`txt`).
  public static let filenameExtension = TagClass("public.filename-extension")
  /// `public.mime-type`: MIME types (`text/plain`).
  public static let mimeType = TagClass("public.mime-type")
  /// `com.apple.ostype`: classic four-character type codes (`TEXT`).
  public static let osType = TagClass("com.apple.ostype")
  /// `com.apple.nspboard-type`: AppKit pasteboard type names.
  public static let pasteboardType = TagClass("com.apple.nspboard-type")

  public var description: String { identifier.rawValue }

  public static func < (lhs: TagClass, rhs: TagClass) -> Bool { lhs.identifier < rhs.identifier }

  /// Whether tags of this class compare case-insensitively (extensions, MIME types).
  ///
  /// OSTypes are case-sensitive four-character codes, and a trailing space in
  /// them is significant (`"svg "`), so they are neither folded nor trimmed.
  public var isCaseInsensitive: Bool { self != .osType }
}

/// One tag of a type declaration, such as the extension `md`.
public struct TypeTag: Hashable, Sendable {
  /// The tag's class.
  public var tagClass: TagClass
  /// The tag as written (for extensions, without a leading dot if written correctly).
  public var value: String
  /// Where the tag was written.
  public var location: SourceLocation?

  /// Creates a tag.
  ///
  /// - Parameters:
  ///   - tagClass: The tag's class.
  ///   - value: The tag as written.
  ///   - location: Where it was written.
  public init(_ tagClass: TagClass, _ value: String, location: SourceLocation? = nil) {
    self.tagClass = tagClass
    self.value = value
    self.location = location
  }

  /// The form used for lookups: lowercased where the class is case-insensitive.
  package var lookupKey: String {
    tagClass.isCaseInsensitive ? TypeIdentifier.foldCase(value) : value
  }
}
