/// Folio's own content rules, compiled in: the formats Folio reads and writes itself, so a
/// registry without the desktop's database (a minimal container, a Mac) still tells a
/// property list, a zip or a gzip stream by its first bytes.
///
/// The signatures are the formats' own (each format's specification names its magic
/// number). With a shared MIME database loaded, its rules outrank these (they are given
/// priority 1); the database has none for binary property lists, and none that tells a
/// property list or JSON from other XML or text, so those of Folio's rules still decide.
enum BuiltInContentRules {
  /// One rule: bytes at an offset, and the type they make.
  struct Signature: Sendable {
    var identifier: TypeIdentifier
    var offset: Int
    var bytes: [UInt8]
  }

  /// The priority of Folio's rules, below every rule of the shared MIME database.
  static let priority = 1

  static let signatures: [Signature] = [
    Signature(identifier: .binaryPropertyList, offset: 0, bytes: Array("bplist0".utf8)),
    Signature(identifier: .zipArchive, offset: 0, bytes: [0x50, 0x4B, 0x03, 0x04]),
    Signature(identifier: .zipArchive, offset: 0, bytes: [0x50, 0x4B, 0x05, 0x06]),
    Signature(identifier: .gzip, offset: 0, bytes: [0x1F, 0x8B]),
    Signature(identifier: .bzip2, offset: 0, bytes: Array("BZh".utf8)),
    Signature(identifier: .xz, offset: 0, bytes: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
    Signature(identifier: .zstandard, offset: 0, bytes: [0x28, 0xB5, 0x2F, 0xFD]),
    Signature(identifier: .tarArchive, offset: 257, bytes: Array("ustar".utf8)),
    Signature(
      identifier: "org.7-zip.7-zip-archive", offset: 0, bytes: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]
    ),
    Signature(identifier: .pdf, offset: 0, bytes: Array("%PDF-".utf8)),
    Signature(
      identifier: .png, offset: 0, bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
    Signature(identifier: .jpeg, offset: 0, bytes: [0xFF, 0xD8, 0xFF]),
    Signature(identifier: .gif, offset: 0, bytes: Array("GIF8".utf8)),
    Signature(identifier: "public.utf16-external-plain-text", offset: 0, bytes: [0xFE, 0xFF]),
    Signature(identifier: .utf16PlainText, offset: 0, bytes: [0xFF, 0xFE]),
    Signature(identifier: .utf8PlainText, offset: 0, bytes: [0xEF, 0xBB, 0xBF]),
    Signature(identifier: .xml, offset: 0, bytes: Array("<?xml".utf8)),
  ]

  /// XML whose document element is `plist` (in no namespace) is an XML property list.
  static let propertyListRoot = RootXMLRule(namespaceURI: "", localName: "plist")
}
