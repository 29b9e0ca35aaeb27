import FolioSystem
import FoundationEssentials

/// Settles the text encoding of an XML or JSON property list and hands back UTF-8.
///
/// UTF-8 (with or without a byte order mark) passes through untouched; UTF-16
/// with a byte order mark (or recognisable from `<?` without one) and the
/// 8-bit encodings an XML declaration may name (ISO-8859-1, Windows-1252,
/// Mac Roman) are transcoded. Anything else is refused with a clear error.
enum TextEncodingSniffer {
  /// The bytes as UTF-8: either a range of the input, or a transcoded copy.
  enum UTF8Text {
    /// The input itself from this offset on (skipping a UTF-8 byte order mark).
    case original(offset: Int)
    /// A transcoded copy.
    case transcoded([UInt8])
  }

  /// Works out the encoding of `bytes` and returns them as UTF-8.
  ///
  /// - Parameters:
  ///   - bytes: The raw input.
  ///   - file: The name used in error locations.
  /// - Returns: Where the UTF-8 text is.
  /// - Throws: ``PropertyListError`` with `unsupported-encoding` or `invalid-string`.
  static func utf8Text(_ bytes: UnsafeRawBufferPointer, file: String) throws -> UTF8Text {
    let count = bytes.count
    func at(_ index: Int) -> UInt8 { index < count ? bytes[index] : 0 }
    if count >= 3, at(0) == 0xEF, at(1) == 0xBB, at(2) == 0xBF { return .original(offset: 3) }
    if count >= 2, at(0) == 0xFE, at(1) == 0xFF {
      return .transcoded(
        try decode(bytes, from: 2, as: .utf16BigEndian, name: "UTF-16", file: file))
    }
    if count >= 2, at(0) == 0xFF, at(1) == 0xFE {
      return .transcoded(
        try decode(bytes, from: 2, as: .utf16LittleEndian, name: "UTF-16", file: file))
    }
    if count >= 4, at(0) == 0, at(1) == 0x3C, at(2) == 0, at(3) == 0x3F {
      return .transcoded(
        try decode(bytes, from: 0, as: .utf16BigEndian, name: "UTF-16", file: file))
    }
    if count >= 4, at(0) == 0x3C, at(1) == 0, at(2) == 0x3F, at(3) == 0 {
      return .transcoded(
        try decode(bytes, from: 0, as: .utf16LittleEndian, name: "UTF-16", file: file))
    }
    guard let declared = declaredEncoding(bytes) else { return .original(offset: 0) }
    switch declared.lowercased() {
    case "utf-8", "utf8", "us-ascii", "ascii", "utf-16", "utf-16le", "utf-16be":
      // UTF-16 named in a declaration read as 8-bit text: the declaration is stale, as Apple's
      // reader also concludes.
      return .original(offset: 0)
    case "iso-8859-1", "latin1", "iso_8859-1", "iso-latin-1":
      return .transcoded(try decode(bytes, from: 0, as: .isoLatin1, name: declared, file: file))
    case "windows-1252", "cp1252":
      return .transcoded(
        try decode(bytes, from: 0, as: .windowsCP1252, name: declared, file: file))
    case "macintosh", "macroman", "x-mac-roman":
      return .transcoded(try decode(bytes, from: 0, as: .macOSRoman, name: declared, file: file))
    default:
      throw PropertyListError(
        .unsupportedEncoding,
        "the XML declaration names the encoding '\(declared)'; Folio reads UTF-8, UTF-16, ISO-8859-1, Windows-1252 and Mac Roman",
        location: SourceLocation(file: file, line: 1, column: 1))
    }
  }

  /// The `encoding="…"` of an XML declaration at the very start, if there is one.
  private static func declaredEncoding(_ bytes: UnsafeRawBufferPointer) -> String? {
    let prefix = Array(bytes.prefix(256))
    guard prefix.starts(with: Array("<?xml".utf8)),
      let end = prefix.firstIndex(of: UInt8(ascii: ">"))
    else { return nil }
    let declaration = String(decoding: prefix[..<end], as: UTF8.self)
    guard let range = declaration.firstRange(of: "encoding") else { return nil }
    var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    rest = rest.dropFirst()
    return String(rest.prefix { $0 != quote })
  }

  private static func decode(
    _ bytes: UnsafeRawBufferPointer, from start: Int, as encoding: String.Encoding, name: String,
    file: String
  ) throws -> [UInt8] {
    let body = Data(bytes[start...])
    guard let text = String(data: body, encoding: encoding) else {
      throw PropertyListError(
        .invalidString, "the file is not valid \(name) text", location: SourceLocation(file: file))
    }
    var utf8 = Array(text.utf8)
    // A transcoded UTF-16 document may still start with a byte order mark of its own.
    if utf8.starts(with: [0xEF, 0xBB, 0xBF]) { utf8.removeFirst(3) }
    return utf8
  }
}
