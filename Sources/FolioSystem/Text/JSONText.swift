package import FoundationEssentials

/// Folio's one way of writing JSON strings, for every JSON output of the tool and library.
///
/// Every output escapes the same characters: the quote, the backslash, C0 controls, DEL and
/// U+2028/U+2029. DEL and the controls would reach a terminal raw; the two separators end a
/// line in JavaScript and in many log viewers. Two outputs of one tool must never disagree on
/// how one name is written.
package enum JSONText {
  /// A JSON string literal for `text`.
  ///
  /// - Parameters:
  ///   - text: The string.
  ///   - escapingSolidus: Whether `/` is written `\/`, as `plutil -convert json` does.
  package static func quote(_ text: String, escapingSolidus: Bool = false) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 2)
    appendQuoted(text, to: &bytes, escapingSolidus: escapingSolidus)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends a JSON string literal for `text` to `output`, as ``quote(_:escapingSolidus:)``.
  package static func appendQuoted(
    _ text: String, to output: inout [UInt8], escapingSolidus: Bool = false
  ) {
    output.append(UInt8(ascii: "\""))
    var utf8 = text.utf8.makeIterator()
    var pending: [UInt8] = []
    while let byte = pending.isEmpty ? utf8.next() : pending.removeFirst() {
      switch byte {
      case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
      case UInt8(ascii: "/") where escapingSolidus: output.append(contentsOf: #"\/"#.utf8)
      case 0x0A: output.append(contentsOf: #"\n"#.utf8)
      case 0x0D: output.append(contentsOf: #"\r"#.utf8)
      case 0x09: output.append(contentsOf: #"\t"#.utf8)
      case 0x08: output.append(contentsOf: #"\b"#.utf8)
      case 0x0C: output.append(contentsOf: #"\f"#.utf8)
      case 0x00..<0x20, 0x7F: appendEscape(UInt32(byte), to: &output)
      case 0xE2:
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; any other E2 sequence passes through.
        guard let second = utf8.next() else {
          output.append(byte)
          break
        }
        guard second == 0x80, let third = utf8.next() else {
          output.append(byte)
          pending.append(second)
          break
        }
        if third == 0xA8 || third == 0xA9 {
          appendEscape(third == 0xA8 ? 0x2028 : 0x2029, to: &output)
        } else {
          output.append(contentsOf: [byte, second, third])
        }
      default: output.append(byte)
      }
    }
    output.append(UInt8(ascii: "\""))
  }

  /// JSON for `value` by `JSONEncoder` (keys sorted, `/` unescaped, pretty-printed unless
  /// `compact`), with DEL and U+2028/U+2029 escaped as ``quote(_:escapingSolidus:)``
  /// escapes them: `JSONEncoder` leaves those raw.
  package static func encode<T: Encodable>(_ value: T, compact: Bool = false) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      compact
      ? [.sortedKeys, .withoutEscapingSlashes]
      : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return escapingRawSeparators(in: try encoder.encode(value))
  }

  /// Escapes every raw DEL, U+2028 and U+2029 in a JSON document.
  ///
  /// Those can appear only inside strings of valid JSON, so replacing them keeps the
  /// document's meaning.
  package static func escapingRawSeparators(in json: Data) -> Data {
    let bytes = [UInt8](json)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count + 16)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x7F {
        appendEscape(0x7F, to: &output)
        index += 1
      } else if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
        bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
      {
        appendEscape(bytes[index + 2] == 0xA8 ? 0x2028 : 0x2029, to: &output)
        index += 3
      } else {
        output.append(byte)
        index += 1
      }
    }
    return Data(output)
  }

  private static func appendEscape(_ value: UInt32, to output: inout [UInt8]) {
    let hex = Array("0123456789abcdef".utf8)
    output.append(contentsOf: #"\u"#.utf8)
    for shift in stride(from: 12, through: 0, by: -4) {
      output.append(hex[Int((value >> UInt32(shift)) & 0xF)])
    }
  }
}
