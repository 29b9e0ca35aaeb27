/// Reads the attributes of a `<match>` element as the shared MIME-info specification writes
/// them: offsets (`4` or `4:8`), values by type (strings with C escapes, numbers in decimal,
/// hexadecimal `0x…` or octal `0…`), and masks (`0x…` for strings, a number otherwise).
enum MagicValueSyntax {
  /// A reason a value cannot be read, for the diagnostic.
  struct Problem: Error, Sendable {
    var message: String
  }

  /// Reads an `offset` attribute.
  ///
  /// - Parameters:
  ///   - text: `start` or `start:end` (inclusive), in decimal.
  ///   - limit: The largest offset allowed.
  /// - Returns: The first offset and how many more to try.
  /// - Throws: ``Problem`` for anything else, or an end before the start or past `limit`.
  static func offset(_ text: String, limit: Int) throws -> (start: Int, rangeLength: Int) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2,
      let start = decimal(parts[0]), let end = parts.count == 2 ? decimal(parts[1]) : start
    else { throw Problem(message: "offset '\(text)' is not N or N:M") }
    guard end >= start else {
      throw Problem(message: "offset range '\(text)' ends before it starts")
    }
    guard end <= limit else {
      throw Problem(message: "offset '\(text)' reaches past \(limit) bytes, the most ever read")
    }
    return (start, end - start)
  }

  /// Reads a `value` attribute for a match type.
  ///
  /// - Parameters:
  ///   - text: The attribute as written.
  ///   - kind: The match type.
  /// - Returns: The bytes to find.
  /// - Throws: ``Problem`` when the text is not a value of the type.
  static func value(_ text: String, kind: MagicMatch.Kind) throws -> [UInt8] {
    switch kind {
    case .string:
      let bytes = try unescape(text)
      guard !bytes.isEmpty else { throw Problem(message: "empty string value") }
      return bytes
    default:
      guard let number = number(text) else {
        throw Problem(message: "value '\(text)' is not a number")
      }
      return try bytes(of: number, kind: kind, what: "value")
    }
  }

  /// Reads a `mask` attribute.
  ///
  /// - Parameters:
  ///   - text: The attribute as written.
  ///   - kind: The match type.
  ///   - length: The value's length in bytes; the mask must have as many.
  /// - Returns: The mask's bytes.
  /// - Throws: ``Problem`` when the text is not a mask for the type and length.
  static func mask(_ text: String, kind: MagicMatch.Kind, length: Int) throws -> [UInt8] {
    switch kind {
    case .string:
      let digits = Array(text.utf8)
      guard digits.count > 2, digits[0] == UInt8(ascii: "0"),
        digits[1] | 0x20 == UInt8(ascii: "x"), digits.count % 2 == 0
      else { throw Problem(message: "string mask '\(text)' is not 0x followed by hex byte pairs") }
      var bytes: [UInt8] = []
      var index = 2
      while index < digits.count {
        guard let high = hexDigit(digits[index]), let low = hexDigit(digits[index + 1]) else {
          throw Problem(message: "string mask '\(text)' has a character that is not hex")
        }
        bytes.append(high << 4 | low)
        index += 2
      }
      guard bytes.count == length else {
        throw Problem(message: "mask '\(text)' has \(bytes.count) bytes for a value of \(length)")
      }
      return bytes
    default:
      guard let number = number(text) else {
        throw Problem(message: "mask '\(text)' is not a number")
      }
      return try bytes(of: number, kind: kind, what: "mask")
    }
  }

  /// Reads a `priority` or `weight` attribute: a decimal number from 0 to 100.
  static func percentage(_ text: String) -> Int? {
    guard let value = decimal(Substring(text)), value <= 100 else { return nil }
    return value
  }

  // MARK: Pieces

  private static func decimal(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.utf8.count <= 12,
      text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int(text)
  }

  /// A number as C's `strtoul` with base 0 reads it, at most 32 bits.
  ///
  /// `0x` starts hexadecimal, a leading `0` octal; otherwise decimal.
  private static func number(_ text: String) -> UInt64? {
    var digits = Substring(text)
    var radix: UInt64 = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    } else if digits.count > 1 && digits.hasPrefix("0") {
      radix = 8
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty, digits.count <= 32 else { return nil }
    var value: UInt64 = 0
    for byte in digits.utf8 {
      guard let digit = hexDigit(byte).map(UInt64.init), digit < radix else { return nil }
      value = value * radix + digit
      guard value <= UInt64(UInt32.max) else { return nil }
    }
    return value
  }

  private static func bytes(of number: UInt64, kind: MagicMatch.Kind, what: String) throws
    -> [UInt8]
  {
    let width: Int
    let bigEndian: Bool
    switch kind {
    case .string: return []
    case .byte: (width, bigEndian) = (1, true)
    case .big16: (width, bigEndian) = (2, true)
    case .little16: (width, bigEndian) = (2, false)
    case .host16: (width, bigEndian) = (2, hostIsBigEndian)
    case .big32: (width, bigEndian) = (4, true)
    case .little32: (width, bigEndian) = (4, false)
    case .host32: (width, bigEndian) = (4, hostIsBigEndian)
    }
    guard number < (1 << (8 * UInt64(width))) else {
      throw Problem(message: "\(what) \(number) does not fit in \(width * 8) bits")
    }
    let bytes = (0..<width).map { UInt8(truncatingIfNeeded: number >> (8 * UInt64($0))) }
    return bigEndian ? bytes.reversed() : bytes
  }

  private static let hostIsBigEndian = 1.bigEndian == 1

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The bytes of a string value with its C escapes resolved: `\0`, `\t`, `\n`, `\r`,
  /// `\xAB` (one or two hex digits), `\777` (one to three octal digits); any other escaped
  /// character stands for itself (`\\`, `\"`, `\ `).
  static func unescape(_ text: String) throws -> [UInt8] {
    let input = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(input.count)
    var index = 0
    while index < input.count {
      let byte = input[index]
      index += 1
      guard byte == UInt8(ascii: "\\") else {
        output.append(byte)
        continue
      }
      guard index < input.count else {
        throw Problem(message: "string value '\(text)' ends with a lone backslash")
      }
      let escaped = input[index]
      index += 1
      switch escaped {
      case UInt8(ascii: "t"): output.append(0x09)
      case UInt8(ascii: "n"): output.append(0x0A)
      case UInt8(ascii: "r"): output.append(0x0D)
      case UInt8(ascii: "x"):
        var value: UInt8 = 0
        var digits = 0
        while digits < 2, index < input.count, let digit = hexDigit(input[index]) {
          value = value << 4 | digit
          index += 1
          digits += 1
        }
        guard digits > 0 else {
          throw Problem(message: "string value '\(text)' has \\x without hex digits")
        }
        output.append(value)
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = Int(escaped - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, index < input.count, input[index] >= UInt8(ascii: "0"),
          input[index] <= UInt8(ascii: "7")
        {
          value = value * 8 + Int(input[index] - UInt8(ascii: "0"))
          index += 1
          digits += 1
        }
        guard value <= 0xFF else {
          throw Problem(message: "string value '\(text)' has an octal escape above \\377")
        }
        output.append(UInt8(value))
      default:
        output.append(escaped)
      }
    }
    return output
  }
}
