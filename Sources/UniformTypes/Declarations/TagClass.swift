package import FolioSystem

/// A kind of tag a type declares: filename extension, MIME type, OSType, ….
///
/// Tag classes are themselves type identifiers (`public.filename-extension`),
/// compared case-insensitively. Declarations may use any tag class; the
/// registry indexes every one it sees.
package struct TagClass: Hashable, Sendable, CustomStringConvertible, Comparable {
  /// The tag class identifier.
  package let identifier: TypeIdentifier

  /// Creates a tag class.
  ///
  /// - Parameter identifier: The tag class identifier, such as `public.mime-type`.
  package init(_ identifier: TypeIdentifier) { self.identifier = identifier }

  /// `public.filename-extension`: extensions without the leading dot (`txt`).
  package static let filenameExtension = TagClass("public.filename-extension")
  /// `public.mime-type`: MIME types (`text/plain`).
  package static let mimeType = TagClass("public.mime-type")
  /// `com.apple.ostype`: classic four-character type codes (`TEXT`).
  package static let osType = TagClass("com.apple.ostype")
  /// `com.apple.nspboard-type`: AppKit pasteboard type names.
  package static let pasteboardType = TagClass("com.apple.nspboard-type")

  package var description: String { identifier.rawValue }

  package static func < (lhs: TagClass, rhs: TagClass) -> Bool { lhs.identifier < rhs.identifier }

  /// Whether tags of this class compare case-insensitively (extensions, MIME types).
  ///
  /// OSTypes are case-sensitive four-character codes, and a trailing space in
  /// them is significant (`"svg "`), so they are neither folded nor trimmed.
  package var isCaseInsensitive: Bool { self != .osType }
}

/// One tag of a type declaration, such as the extension `md`.
package struct TypeTag: Hashable, Sendable {
  /// The tag's class.
  package var tagClass: TagClass
  /// The tag as written (for extensions, without a leading dot if written correctly).
  package var value: String
  /// Where the tag was written.
  package var location: SourceLocation?

  /// Creates a tag.
  ///
  /// - Parameters:
  ///   - tagClass: The tag's class.
  ///   - value: The tag as written.
  ///   - location: Where it was written.
  package init(_ tagClass: TagClass, _ value: String, location: SourceLocation? = nil) {
    self.tagClass = tagClass
    self.value = value
    self.location = location
  }

  /// The form used for lookups: lowercased where the class is case-insensitive.
  package var lookupKey: String {
    tagClass.isCaseInsensitive ? TypeIdentifier.foldCase(value) : value
  }
}
