/// An archive entry's name as raw bytes, with a safe form for messages.
///
/// Names come from untrusted archives: they may hold control characters
/// (which could rewrite a terminal line), invalid UTF-8 or thousands of
/// bytes. ``display`` escapes the first two and shortens the last, so every
/// message can name the entry without harm.
public struct EntryName: Hashable, Sendable, CustomStringConvertible {
  /// The longest ``display`` form, in characters, before the middle is elided.
  public static let displayLimit = 120

  /// The name's bytes as the archive holds them.
  public let bytes: [UInt8]

  /// Creates a name from raw bytes.
  ///
  /// - Parameter bytes: The name's bytes as the archive holds them.
  public init(bytes: [UInt8]) { self.bytes = bytes }

  /// Creates a name from text.
  ///
  /// - Parameter text: The name.
  public init(_ text: String) { self.bytes = Array(text.utf8) }

  /// The name as text, or `nil` when it is not valid UTF-8.
  public var string: String? { String(validating: bytes, as: UTF8.self) }

  /// The name for messages: control characters and invalid bytes escaped
  /// (`\n`, `\u{1B}`, `\xFF`), quoted, and shortened in the middle past
  /// ``displayLimit`` characters.
  public var display: String { "'\(Self.escape(bytes, limit: Self.displayLimit))'" }

  public var description: String { display }

  /// A name for a listing line: escaped like ``display`` but neither quoted nor shortened.
  ///
  /// - Parameter name: The name.
  /// - Returns: Printable text.
  public static func escapeForListing(_ name: EntryName) -> String {
    escape(name.bytes, limit: Int.max)
  }

  /// Escapes bytes for one line of text, shortening past `limit` characters.
  ///
  /// - Parameters:
  ///   - bytes: Possibly invalid UTF-8.
  ///   - limit: The most characters to keep; the middle is replaced by `…`.
  /// - Returns: Printable text.
  static func escape(_ bytes: [UInt8], limit: Int) -> String {
    // Most names are printable ASCII with nothing to escape or shorten: one copy, no
    // per-character strings (this ran for every entry of every expansion).
    if bytes.count <= limit,
      bytes.allSatisfy({
        $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "'")
      })
    {
      return String(decoding: bytes, as: UTF8.self)
    }
    var pieces: [String] = []
    var index = 0
    while index < bytes.count {
      let length = scalarLength(bytes, at: index)
      if length == 0 {
        pieces.append("\\x" + hex(bytes[index]))
        index += 1
        continue
      }
      let slice = bytes[index..<(index + length)]
      guard let scalar = String(decoding: slice, as: UTF8.self).unicodeScalars.first else { break }
      pieces.append(escape(scalar))
      index += length
    }
    guard pieces.count > limit else { return pieces.joined() }
    let head = (limit - 1) / 2
    let tail = limit - 1 - head
    return pieces.prefix(head).joined() + "…" + pieces.suffix(tail).joined()
  }

  private static func escape(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case "\\": return "\\\\"
    case "'": return "\\'"
    default:
      let value = scalar.value
      // C0, DEL, C1, and the bidirectional overrides that reorder a terminal line.
      if value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
        || (0x2066...0x2069).contains(value)
      {
        return "\\u{\(String(value, radix: 16, uppercase: true))}"
      }
      return String(scalar)
    }
  }

  private static func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
  }

  /// The length of the well-formed UTF-8 scalar at `index`, or 0 when the byte starts none.
  private static func scalarLength(_ bytes: [UInt8], at index: Int) -> Int {
    let lead = bytes[index]
    let length: Int
    let minimum: UInt32
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2; minimum = 0x80
    case 0xE0...0xEF: length = 3; minimum = 0x800
    case 0xF0...0xF4: length = 4; minimum = 0x10000
    default: return 0
    }
    guard index + length <= bytes.count else { return 0 }
    var value = UInt32(lead) & (0xFF >> (length + 1))
    for offset in 1..<length {
      let byte = bytes[index + offset]
      guard byte & 0xC0 == 0x80 else { return 0 }
      value = value << 6 | UInt32(byte & 0x3F)
    }
    guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return 0 }
    return length
  }
}
