extension TypeIdentifier {
  /// The domain of the identifiers Folio gives the Linux desktop's MIME types that no
  /// system type declares.
  package static let desktopDomain = "org.freedesktop.mime"

  /// The identifier Folio gives a MIME type of the shared MIME database that no system
  /// type declares: `org.freedesktop.mime.` then the MIME type in lower case with `/`
  /// written `.`, `+` written `-plus-`, and any other character an identifier cannot
  /// hold written `-` (`application/x-matroska` is `org.freedesktop.mime.application.x-matroska`,
  /// `application/ld+json` is `org.freedesktop.mime.application.ld-plus-json`).
  ///
  /// The same MIME type gives the same identifier on every machine.
  ///
  /// - Parameter mimeType: A `media/subtype` MIME type.
  /// - Returns: The identifier.
  package static func desktop(mimeType: String) -> TypeIdentifier {
    // Into bytes, not a String appended scalar by scalar: the database has hundreds of
    // types, and those appends showed in the load's profile. Every character kept is ASCII.
    var bytes = Array((desktopDomain + ".").utf8)
    bytes.reserveCapacity(bytes.count + mimeType.utf8.count + 8)
    for scalar in TypeIdentifier.foldCase(mimeType).unicodeScalars {
      switch scalar {
      case "a"..."z", "0"..."9", "-", ".": bytes.append(UInt8(scalar.value))
      case "/": bytes.append(UInt8(ascii: "."))
      case "+": bytes += "-plus-".utf8
      default: bytes.append(UInt8(ascii: "-"))
      }
    }
    return TypeIdentifier(String(decoding: bytes, as: UTF8.self))
  }

  /// Whether the identifier is one Folio made for a shared MIME database type.
  package var isDesktop: Bool { key.hasPrefix(Self.desktopDomain + ".") }
}
