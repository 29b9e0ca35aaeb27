import Archives
/// A character encoding that Folio reads and writes plain text in.
public enum TextEncoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// UTF-8, written without a byte-order mark; a leading mark is skipped on reading.
  case utf8
  /// UTF-16, little-endian, written with a byte-order mark.
  case utf16LittleEndian
  /// UTF-16, big-endian, written with a byte-order mark (Apple's "external" UTF-16).
  case utf16BigEndian
  /// ISO 8859-1: one byte per character, U+0000 to U+00FF only.
  case latin1

  /// The name people know the encoding by (`UTF-8`, `UTF-16LE`, `Latin-1`).
  public var description: String {
    switch self {
    case .utf8: "UTF-8"
    case .utf16LittleEndian: "UTF-16LE"
    case .utf16BigEndian: "UTF-16BE"
    case .latin1: "Latin-1"
    }
  }

  /// The byte-order mark Folio writes at the start of text in this encoding (empty for none).
  public var byteOrderMark: [UInt8] {
    switch self {
    case .utf8, .latin1: []
    case .utf16LittleEndian: [0xFF, 0xFE]
    case .utf16BigEndian: [0xFE, 0xFF]
    }
  }

  /// Whether every Unicode scalar has a form in this encoding.
  public var coversUnicode: Bool { self != .latin1 }

  /// The encoding a byte-order mark at the start of `bytes` announces, with the mark's length.
  ///
  /// - Parameter bytes: The first bytes of a text (three are enough).
  /// - Returns: The encoding and the mark's length in bytes, or `nil` when there is no mark.
  public static func detectByteOrderMark(_ bytes: some Collection<UInt8>) -> (TextEncoding, Int)? {
    let head = Array(bytes.prefix(3))
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
    if head.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
    if head.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
    return nil
  }
}
