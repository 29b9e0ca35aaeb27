import FolioSystem
import FoundationEssentials

/// Reads the old ASCII (OpenStep, NeXTSTEP) form of a property list, as Foundation and `plutil`
/// read it, with a line and column on every value.
///
/// The grammar, as Core Foundation's old-style parser has it:
/// - a dictionary `{ key = value; … }`, every entry ended by `;` (the last one too); `key;`
///   alone stands for `key = key;` (the strings-file shortcut);
/// - an array `( value, value )`, a trailing comma allowed;
/// - data `<0fbd 7777>`: pairs of hex digits, with spaces and line breaks between pairs;
/// - a string, quoted (`"…"` or `'…'`, with the escapes `\a \b \f \n \r \t \v`, `\"`, `\\`, up to
///   three octal digits in the NeXTSTEP encoding, and `\U` with up to four hex digits of UTF-16)
///   or unquoted (letters, digits and `_ $ / : . -`);
/// - comments `// …` and `/* … */` wherever whitespace may stand;
/// - the strings-file form: a top level of `key = value;` entries without braces.
///
/// The format has no numbers, booleans or dates: every scalar is a string, as Foundation reads
/// it. Containers nest at most ``PropertyListReadOptions/maximumDepth`` deep (checked before
/// each level, so no input can exhaust the stack). A key repeated in one dictionary is kept
/// and reported as a warning; Foundation keeps its last value.
struct OpenStepPropertyListReader: PropertyListTextReading {
  var cursor: PropertyListTextCursor
  private var diagnostics: [Diagnostic] = []
  private var duplicateKeys = DuplicateKeyWarnings()

  static let malformedCode = PropertyListErrorDomain.Code.malformedOpenStep
  static let malformedPrefix = "malformed OpenStep property list"

  private init(bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions) {
    cursor = PropertyListTextCursor(bytes: bytes, file: file, options: options)
  }

  /// Reads an OpenStep property list.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8 text.
  ///   - file: The name used in locations.
  ///   - options: The depth limit.
  /// - Returns: The document, with format ``PropertyListFormat/openStep``.
  /// - Throws: ``PropertyListError`` with `malformed-openstep` or `too-deep`, at the place.
  static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions
  ) throws -> PropertyListDocument {
    var reader = OpenStepPropertyListReader(
      bytes: bytes, file: file, options: options)
    let root = try reader.document()
    return PropertyListDocument(
      root: root, format: .openStep,
      diagnostics: reader.diagnostics + reader.duplicateKeys.diagnostics(file: file))
  }

  // MARK: Grammar

  private mutating func document() throws -> PropertyListValue {
    skipSpace()
    let start = here()
    guard index < bytes.count else { return PropertyListValue(.dictionary([]), location: start) }
    let first = try value()
    skipSpace()
    guard index < bytes.count else { return first }
    // A string followed by more text: the strings-file form, `key = value;` without braces.
    guard case .string = first.content else {
      throw error("unexpected text after the property list")
    }
    cursor.restart()
    diagnostics = []
    duplicateKeys = DuplicateKeyWarnings()
    let entries = try dictionaryContent(closedBy: nil)
    return PropertyListValue(.dictionary(entries), location: start)
  }

  private mutating func value() throws -> PropertyListValue {
    skipSpace()
    guard index < bytes.count else { throw error("the text ends where a value was expected") }
    let location = here()
    try cursor.countValue(at: location)
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try cursor.enter(location)
      index += 1
      let entries = try dictionaryContent(closedBy: UInt8(ascii: "}"))
      index += 1
      cursor.leave()
      return PropertyListValue(.dictionary(entries), location: location)
    case UInt8(ascii: "("):
      try cursor.enter(location)
      index += 1
      let items = try arrayContent()
      cursor.leave()
      return PropertyListValue(.array(items), location: location)
    case UInt8(ascii: "<"):
      return PropertyListValue(.data(try data()), location: location)
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      return PropertyListValue(.string(try quotedString()), location: location)
    case let byte where Self.isUnquotedCharacter(byte):
      return PropertyListValue(.string(unquotedString()), location: location)
    default:
      throw error("expected a value, found \(character(at: index))")
    }
  }

  /// Entries up to `closing` (not consumed), or to the end of the text when `closing` is nil.
  private mutating func dictionaryContent(closedBy closing: UInt8?) throws -> [PropertyListValue
    .DictionaryEntry]
  {
    var entries: [PropertyListValue.DictionaryEntry] = []
    var firstLines: [String: Int] = [:]
    while true {
      skipSpace()
      guard index < bytes.count else {
        if closing == nil { return entries }
        throw error("the text ends inside a dictionary; expected '}'")
      }
      if let closing, bytes[index] == closing { return entries }
      let keyLocation = here()
      let key: String
      switch bytes[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"): key = try quotedString()
      case let byte where Self.isUnquotedCharacter(byte): key = unquotedString()
      default:
        throw error(
          "expected a key (a quoted or unquoted string)\(closing == nil ? "" : " or '}'"), found \(character(at: index))"
        )
      }
      skipSpace()
      guard index < bytes.count else { throw error("the text ends after the key '\(shown(key))'") }
      let item: PropertyListValue
      if bytes[index] == UInt8(ascii: ";") {
        item = PropertyListValue(.string(key), location: keyLocation)
      } else if bytes[index] == UInt8(ascii: "=") {
        index += 1
        item = try value()
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else {
          throw error("missing ';' after the value of the key '\(shown(key))'")
        }
      } else {
        throw error(
          "expected '=' or ';' after the key '\(shown(key))', found \(character(at: index))")
      }
      index += 1
      if let first = firstLines[key] {
        duplicateKeys.record(
          Diagnostic(
            severity: .warning, code: Diagnostic.duplicateKeyCode,
            message:
              "key '\(Self.shown(key))' repeats in this dictionary (first at line \(first)); the last value wins",
            location: keyLocation, hint: "remove one of the entries"))
      } else {
        firstLines[key] = keyLocation.line ?? 0
      }
      entries.append(.init(key: key, keyLocation: keyLocation, value: item))
    }
  }

  private mutating func arrayContent() throws -> [PropertyListValue] {
    var items: [PropertyListValue] = []
    while true {
      skipSpace()
      guard index < bytes.count else { throw error("the text ends inside an array; expected ')'") }
      if bytes[index] == UInt8(ascii: ")") {
        index += 1
        return items
      }
      items.append(try value())
      skipSpace()
      guard index < bytes.count else { throw error("the text ends inside an array; expected ')'") }
      switch bytes[index] {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: ")"):
        index += 1
        return items
      default: throw error("expected ',' or ')' in the array, found \(character(at: index))")
      }
    }
  }

  private mutating func data() throws -> Data {
    let start = index
    index += 1
    var result = Data()
    while true {
      guard index < bytes.count else { throw error("the data never ends; expected '>'", at: start) }
      let byte = bytes[index]
      if byte == UInt8(ascii: ">") {
        index += 1
        return result
      }
      if byte == UInt8(ascii: " ") || byte == 0x0A || byte == 0x0D {
        index += 1
        continue
      }
      if let separator = lineSeparatorLength(at: index) {
        index += separator
        continue
      }
      guard let high = Self.hexValue(byte) else {
        throw error("data holds \(character(at: index)), not a hex digit")
      }
      guard index + 1 < bytes.count, let low = Self.hexValue(bytes[index + 1]) else {
        throw error("data has an odd number of hex digits in a group")
      }
      result.append(high << 4 | low)
      index += 2
    }
  }

  private mutating func quotedString() throws -> String {
    let start = index
    let quote = bytes[index]
    index += 1
    var utf8: [UInt8] = []
    var pendingHighSurrogate: UInt16?
    func flushSurrogate() throws {
      if pendingHighSurrogate != nil {
        throw error("a \\U escape holds half of a surrogate pair")
      }
    }
    while true {
      guard index < bytes.count else { throw error("the string never ends", at: start) }
      let byte = bytes[index]
      if byte == quote {
        try flushSurrogate()
        index += 1
        break
      }
      guard byte == UInt8(ascii: "\\") else {
        try flushSurrogate()
        utf8.append(byte)
        index += 1
        continue
      }
      let escapeStart = index
      index += 1
      guard index < bytes.count else {
        throw error("the string ends inside an escape", at: escapeStart)
      }
      let escape = bytes[index]
      index += 1
      if escape == UInt8(ascii: "U") {
        var code: UInt16 = 0
        var digits = 0
        while digits < 4, index < bytes.count, let digit = Self.hexValue(bytes[index]) {
          code = code << 4 | UInt16(digit)
          digits += 1
          index += 1
        }
        guard digits > 0 else { throw error("\\U needs hex digits", at: escapeStart) }
        if let high = pendingHighSurrogate {
          guard (0xDC00...0xDFFF).contains(code) else {
            throw error("a \\U escape holds half of a surrogate pair", at: escapeStart)
          }
          pendingHighSurrogate = nil
          let scalar = 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(code) - 0xDC00)
          utf8 += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
        } else if (0xD800...0xDBFF).contains(code) {
          pendingHighSurrogate = code
        } else {
          guard let scalar = Unicode.Scalar(UInt32(code)) else {
            throw error("a \\U escape holds half of a surrogate pair", at: escapeStart)
          }
          utf8 += Array(String(Character(scalar)).utf8)
        }
        continue
      }
      try flushSurrogate()
      switch escape {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        // Up to three octal digits, kept to one byte as Foundation keeps it, in NeXTSTEP's
        // encoding above 127.
        var code = escape - UInt8(ascii: "0")
        var digits = 1
        while digits < 3, index < bytes.count,
          (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index])
        {
          code = code &<< 3 &+ (bytes[index] - UInt8(ascii: "0"))
          digits += 1
          index += 1
        }
        if code < 0x80 {
          utf8.append(code)
        } else if let text = String(bytes: [code], encoding: .nextstep) {
          utf8 += Array(text.utf8)
        } else {
          throw error("\\\(String(code, radix: 8)) is not a NeXTSTEP character", at: escapeStart)
        }
      case UInt8(ascii: "a"): utf8.append(0x07)
      case UInt8(ascii: "b"): utf8.append(0x08)
      case UInt8(ascii: "f"): utf8.append(0x0C)
      case UInt8(ascii: "n"): utf8.append(0x0A)
      case UInt8(ascii: "r"): utf8.append(0x0D)
      case UInt8(ascii: "t"): utf8.append(0x09)
      case UInt8(ascii: "v"): utf8.append(0x0B)
      default:
        // Any other escaped character stands for itself (`\"`, `\\`, `\'`), whole if non-ASCII.
        utf8.append(escape)
        while index < bytes.count, bytes[index] & 0xC0 == 0x80 {
          utf8.append(bytes[index])
          index += 1
        }
      }
    }
    guard let text = String(validating: utf8, as: UTF8.self) else {
      throw PropertyListError(
        .invalidString, "the string is not valid UTF-8", location: location(at: start))
    }
    return text
  }

  private mutating func unquotedString() -> String {
    let start = index
    while index < bytes.count, Self.isUnquotedCharacter(bytes[index]) { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  // MARK: Characters

  static func isUnquotedCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"),
      UInt8(ascii: "."), UInt8(ascii: "-"):
      true
    default: false
    }
  }

  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The length of U+2028 or U+2029 (line and paragraph separators) at an offset, if one is there.
  private func lineSeparatorLength(at offset: Int) -> Int? {
    guard offset + 2 < bytes.count, bytes[offset] == 0xE2, bytes[offset + 1] == 0x80,
      bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9
    else { return nil }
    return 3
  }

  /// Skips whitespace and comments.
  private mutating func skipSpace() {
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20:
        index += 1
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/"):
        index += 2
        while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D,
          lineSeparatorLength(at: index) == nil
        {
          index += 1
        }
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
        index += 2
        while true {
          guard index + 1 < bytes.count else {
            // Foundation lets an unclosed comment run to the end of the text.
            index = bytes.count
            return
          }
          if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") {
            index += 2
            break
          }
          index += 1
        }
      default:
        guard let separator = lineSeparatorLength(at: index) else { return }
        index += separator
      }
    }
  }

  // MARK: Positions and errors

  private func shown(_ text: String) -> String { Self.shown(text) }

  private static func shown(_ text: String) -> String {
    XMLPropertyListBuilder.shown(DiagnosticText.escaped(text))
  }

  private func character(at offset: Int) -> String {
    guard offset < bytes.count else { return "the end of the text" }
    let byte = bytes[offset]
    if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "the byte 0x\(String(byte, radix: 16, uppercase: true))"
  }
}
