import FolioSystem
import FoundationEssentials
import Glibc

/// Reads the JSON form of a property list (RFC 8259), with a line and column on every value.
///
/// Objects become dictionaries (keys in document order, duplicates kept and
/// reported as warnings), arrays arrays, strings strings, `true`/`false`
/// booleans; numbers without a fraction or exponent become integers (64-bit
/// signed, or unsigned above `Int64.max`), others reals. `null` has no
/// property-list equivalent and is refused, as `plutil` refuses it.
struct JSONPropertyListReader: PropertyListTextReading {
  var cursor: PropertyListTextCursor
  private var diagnostics: [Diagnostic] = []
  private var duplicateKeys = DuplicateKeyWarnings()

  static let malformedCode = PropertyListErrorDomain.Code.malformedJSON
  static let malformedPrefix = "malformed JSON"

  private init(bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions) {
    cursor = PropertyListTextCursor(bytes: bytes, file: file, options: options)
  }

  /// Whether text starting with `{` at `start` is JSON rather than an OpenStep property list:
  /// the brace is followed by `}` or by a quoted key and a colon.
  static func looksLikeJSONObject(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    var index = start + 1
    func skipWhitespace() {
      while index < bytes.count, PropertyListScalarSyntax.isWhitespace(bytes[index]) { index += 1 }
    }
    skipWhitespace()
    guard index < bytes.count else { return true }
    if bytes[index] == UInt8(ascii: "}") { return true }
    guard bytes[index] == UInt8(ascii: "\"") else { return false }
    index += 1
    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
      index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
    }
    index += 1
    skipWhitespace()
    return index >= bytes.count || bytes[index] == UInt8(ascii: ":")
  }

  /// Reads a JSON document.
  ///
  /// - Parameters:
  ///   - bytes: UTF-8 text.
  ///   - file: The name used in locations.
  ///   - options: The depth limit.
  /// - Returns: The document.
  /// - Throws: ``PropertyListError`` with `malformed-json`, `too-deep` or `unrepresentable`.
  static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, options: PropertyListReadOptions
  ) throws -> PropertyListDocument {
    var reader = JSONPropertyListReader(
      bytes: bytes, file: file, options: options)
    reader.skipWhitespace()
    let root = try reader.value()
    reader.skipWhitespace()
    if reader.index < bytes.count {
      throw reader.error("unexpected text after the end of the JSON value")
    }
    return PropertyListDocument(
      root: root, format: .json,
      diagnostics: reader.diagnostics + reader.duplicateKeys.diagnostics(file: file))
  }

  // MARK: Grammar

  private mutating func value() throws -> PropertyListValue {
    guard index < bytes.count else { throw error("the JSON text ends where a value was expected") }
    let location = here()
    try cursor.countValue(at: location)
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(location)
    case UInt8(ascii: "["): return try array(location)
    case UInt8(ascii: "\""): return PropertyListValue(.string(try string()), location: location)
    case UInt8(ascii: "t"):
      try literal("true")
      return PropertyListValue(.boolean(true), location: location)
    case UInt8(ascii: "f"):
      try literal("false")
      return PropertyListValue(.boolean(false), location: location)
    case UInt8(ascii: "n"):
      try literal("null")
      throw PropertyListError(
        .unrepresentable, "null has no property list equivalent", location: location)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return PropertyListValue(try number(), location: location)
    default:
      throw error("expected a JSON value, found '\(character(at: index))'")
    }
  }

  private mutating func object(_ location: SourceLocation) throws -> PropertyListValue {
    try cursor.enter(location)
    index += 1
    var entries: [PropertyListValue.DictionaryEntry] = []
    var firstLines: [String: SourceLocation] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      cursor.leave()
      return PropertyListValue(.dictionary([]), location: location)
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error("expected a quoted key in the object")
      }
      let keyLocation = here()
      let key = try string()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error("expected ':' after the key '\(XMLPropertyListBuilder.shown(key))'")
      }
      index += 1
      skipWhitespace()
      let item = try value()
      if let first = firstLines[key] {
        duplicateKeys.record(
          Diagnostic(
            severity: .warning, code: Diagnostic.duplicateKeyCode,
            message:
              "key '\(XMLPropertyListBuilder.shown(key))' repeats in this object (first at line \(first.line ?? 0)); the last value wins",
            location: keyLocation, hint: "remove one of the entries"))
      } else {
        firstLines[key] = keyLocation
      }
      entries.append(.init(key: key, keyLocation: keyLocation, value: item))
      skipWhitespace()
      guard index < bytes.count else { throw error("the JSON text ends inside an object") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else {
        throw error("expected ',' or '}' in the object, found '\(character(at: index))'")
      }
      index += 1
      cursor.leave()
      return PropertyListValue(.dictionary(entries), location: location)
    }
  }

  private mutating func array(_ location: SourceLocation) throws -> PropertyListValue {
    try cursor.enter(location)
    index += 1
    var items: [PropertyListValue] = []
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      cursor.leave()
      return PropertyListValue(.array([]), location: location)
    }
    while true {
      skipWhitespace()
      items.append(try value())
      skipWhitespace()
      guard index < bytes.count else { throw error("the JSON text ends inside an array") }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else {
        throw error("expected ',' or ']' in the array, found '\(character(at: index))'")
      }
      index += 1
      cursor.leave()
      return PropertyListValue(.array(items), location: location)
    }
  }

  private mutating func literal(_ word: StaticString) throws {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count,
      memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0
    else { throw error("expected '\(word)'") }
    index += count
  }

  private mutating func number() throws -> PropertyListValue.Content {
    let start = index
    var isInteger = true
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    func digits() -> Int {
      let begin = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - begin
    }
    let integerDigits = digits()
    guard integerDigits > 0 else { throw error("expected digits in the number") }
    if integerDigits > 1, bytes[index - integerDigits] == UInt8(ascii: "0") {
      throw error("a JSON number may not have leading zeros", at: start)
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard digits() > 0 else { throw error("expected digits after the decimal point") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard digits() > 0 else { throw error("expected digits in the exponent") }
    }
    let text = bytes[start..<index]
    if isInteger, let integer = PropertyListScalarSyntax.integer(ArraySlice(text)) {
      switch integer {
      case .signed(let value): return .integer(value)
      case .unsigned(let value): return .unsignedInteger(value)
      }
    }
    guard let real = Double(String(decoding: text, as: UTF8.self)) else {
      throw error("the number is not representable", at: start)
    }
    return .real(real)
  }

  private mutating func string() throws -> String {
    let start = index
    index += 1
    var scalars: [UInt8] = []
    var runStart = index
    while true {
      guard index < bytes.count else { throw error("the string never ends", at: start) }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        scalars.append(contentsOf: bytes[runStart..<index])
        index += 1
        break
      }
      if byte < 0x20 {
        throw error("a control character must be escaped inside a JSON string")
      }
      if byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      scalars.append(contentsOf: bytes[runStart..<index])
      index += 1
      guard index < bytes.count else { throw error("the string never ends", at: start) }
      let escape = bytes[index]
      index += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append(0x22)
      case UInt8(ascii: "\\"): scalars.append(0x5C)
      case UInt8(ascii: "/"): scalars.append(0x2F)
      case UInt8(ascii: "b"): scalars.append(0x08)
      case UInt8(ascii: "f"): scalars.append(0x0C)
      case UInt8(ascii: "n"): scalars.append(0x0A)
      case UInt8(ascii: "r"): scalars.append(0x0D)
      case UInt8(ascii: "t"): scalars.append(0x09)
      case UInt8(ascii: "u"):
        var code = try hexQuad()
        if (0xD800...0xDBFF).contains(code) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else { throw error("a high surrogate \\u escape must be followed by a low one") }
          index += 2
          let low = try hexQuad()
          guard (0xDC00...0xDFFF).contains(low) else {
            throw error("a high surrogate \\u escape must be followed by a low one")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
          throw error("a lone low surrogate \\u escape")
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
        scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
      default:
        throw error(
          "unknown escape '\\\(String(UnicodeScalar(escape)))' in a string", at: index - 2)
      }
      runStart = index
    }
    guard let text = String(validating: scalars, as: UTF8.self) else {
      throw PropertyListError(
        .invalidString, "the string is not valid UTF-8", location: location(at: start))
    }
    return text
  }

  private mutating func hexQuad() throws -> UInt32 {
    guard index + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("a \\u escape needs four hex digits")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  // MARK: Positions

  private mutating func skipWhitespace() {
    while index < bytes.count, PropertyListScalarSyntax.isWhitespace(bytes[index]) { index += 1 }
  }

  private func character(at offset: Int) -> String {
    guard offset < bytes.count else { return "end of file" }
    let byte = bytes[offset]
    return byte < 0x80 ? String(UnicodeScalar(byte)) : "\\u{\(String(byte, radix: 16))}"
  }
}
