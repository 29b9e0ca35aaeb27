extension TypeIdentifier {
  /// The domain of the identifiers Folio gives the Linux desktop's MIME types that no
  /// system type declares.
  public static let desktopDomain = "org.freedesktop.mime"

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
  public static func desktop(mimeType: String) -> TypeIdentifier {
    // Byte by byte when the name is ASCII (every name the database holds): the database
    // has hundreds of types, and Unicode scalar appends showed in the load's profile.
    if mimeType.utf8.allSatisfy({ $0 < 0x80 }) {
      var bytes = Array((desktopDomain + ".").utf8)
      bytes.reserveCapacity(bytes.count + mimeType.utf8.count + 8)
      for byte in mimeType.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
          UInt8(ascii: "-"), UInt8(ascii: "."):
          bytes.append(byte)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 0x20)
        case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "."))
        case UInt8(ascii: "+"): bytes += "-plus-".utf8
        default: bytes.append(UInt8(ascii: "-"))
        }
      }
      return TypeIdentifier(String(decoding: bytes, as: UTF8.self))
    }
    var text = desktopDomain + "."
    for scalar in TypeIdentifier.foldCase(mimeType).unicodeScalars {
      switch scalar {
      case "a"..."z", "0"..."9", "-", ".": text.unicodeScalars.append(scalar)
      case "/": text += "."
      case "+": text += "-plus-"
      default: text += "-"
      }
    }
    return TypeIdentifier(text)
  }

  /// Whether the identifier is one Folio made for a shared MIME database type.
  public var isDesktop: Bool { key.hasPrefix(Self.desktopDomain + ".") }
}
