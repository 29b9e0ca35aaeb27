import FolioSystem
import FoundationEssentials

/// The text forms of integers, reals, dates and data shared by the XML reader and writer.
enum PropertyListScalarSyntax {
  /// An integer that fits `Int64`, or above it, up to `UInt64.max`.
  enum Integer: Equatable {
    case signed(Int64)
    case unsigned(UInt64)
  }

  /// Whether a byte is XML whitespace (space, tab, line feed, carriage return).
  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  /// Parses `[+-]digits` or `[+-]0xHEX`, as Apple's XML reader does (no surrounding spaces).
  ///
  /// - Returns: The integer, or `nil` when the text is not one or is out of the 64-bit range.
  static func integer(_ text: ArraySlice<UInt8>) -> Integer? {
    var digits = text
    var negative = false
    if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
      negative = sign == UInt8(ascii: "-")
      digits = digits.dropFirst()
    }
    var radix: UInt64 = 10
    if digits.count > 2, digits.first == UInt8(ascii: "0"),
      digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x")
    {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty else { return nil }
    var magnitude: UInt64 = 0
    for byte in digits {
      let digit: UInt64
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16:
        digit = UInt64(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16:
        digit = UInt64(byte - UInt8(ascii: "A") + 10)
      default: return nil
      }
      let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
      let (sum, overflow2) = shifted.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return nil }
      magnitude = sum
    }
    if negative {
      if magnitude == UInt64(Int64.max) + 1 { return .signed(.min) }
      guard magnitude <= UInt64(Int64.max) else { return nil }
      return .signed(-Int64(magnitude))
    }
    if magnitude <= UInt64(Int64.max) { return .signed(Int64(magnitude)) }
    return .unsigned(magnitude)
  }

  /// Parses a real: decimal or exponent notation, `nan`, `inf`, `infinity`, signed, any case
  /// (no surrounding spaces, as Apple's reader).
  ///
  /// - Returns: The number, or `nil` when the text is not one.
  static func real(_ text: ArraySlice<UInt8>) -> Double? {
    let body = text
    guard !body.isEmpty, body.count < 400 else { return nil }
    for byte in body {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"),
        UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
        continue
      default:
        let word = String(decoding: body, as: UTF8.self).lowercased()
        var unsigned = Substring(word)
        var sign = 1.0
        if let first = unsigned.first, first == "+" || first == "-" {
          sign = first == "-" ? -1 : 1
          unsigned = unsigned.dropFirst()
        }
        switch unsigned {
        case "nan": return .nan
        case "inf", "infinity": return sign * .infinity
        default: return nil
        }
      }
    }
    return Double(String(decoding: body, as: UTF8.self))
  }

  /// A date read from text, and whether it named a time that does not exist as written.
  struct ParsedDate {
    var date: Date
    /// `true` for February 30th, `24:00:00` or second 60, which Apple reads by rolling over.
    var rolledOver: Bool
  }

  /// Parses `YYYY-MM-DDTHH:MM:SSZ` (UTC), the only form Apple writes.
  ///
  /// Like Apple's reader, a day past the end of its month, hour 24 and second 60 roll over
  /// into the next day, month or minute; ``ParsedDate/rolledOver`` says when that happened.
  ///
  /// - Returns: The date, or `nil` when the text is not in that form or is out of range.
  static func date(_ text: ArraySlice<UInt8>) -> ParsedDate? {
    let body = Array(text)
    var index = 0
    func number(minimumDigits: Int, maximumDigits: Int) -> Int? {
      var value = 0
      var count = 0
      while index < body.count, count < maximumDigits,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(body[index])
      {
        value = value * 10 + Int(body[index] - UInt8(ascii: "0"))
        index += 1
        count += 1
      }
      return count >= minimumDigits ? value : nil
    }
    func expect(_ character: Character) -> Bool {
      guard index < body.count, body[index] == character.asciiValue else { return false }
      index += 1
      return true
    }
    var yearSign = 1
    if index < body.count, body[index] == UInt8(ascii: "-") {
      yearSign = -1
      index += 1
    }
    guard let unsignedYear = number(minimumDigits: 4, maximumDigits: 9), expect("-"),
      let month = number(minimumDigits: 2, maximumDigits: 2), expect("-"),
      let day = number(minimumDigits: 2, maximumDigits: 2), expect("T"),
      let hour = number(minimumDigits: 2, maximumDigits: 2), expect(":"),
      let minute = number(minimumDigits: 2, maximumDigits: 2), expect(":"),
      let second = number(minimumDigits: 2, maximumDigits: 2), expect("Z"),
      index == body.count
    else { return nil }
    let year = yearSign * unsignedYear
    guard (1...12).contains(month), (1...31).contains(day), (0...24).contains(hour),
      (0...59).contains(minute), (0...60).contains(second)
    else { return nil }
    let rolledOver = day > daysIn(month: month, year: year) || hour == 24 || second == 60
    let days = CivilCalendar.days(year: year, month: month, day: 1) + day - 1
    let seconds = Double(days) * 86_400 + Double(hour * 3600 + minute * 60 + second)
    guard dateRange.contains(seconds) else { return nil }
    return ParsedDate(date: Date(timeIntervalSince1970: seconds), rolledOver: rolledOver)
  }

  /// The dates the XML form reads and writes: within this many seconds of 1970 (about
  /// 31 million years either way), which keeps every calculation exact.
  static let dateRange: ClosedRange<Double> = -1e15...1e15

  /// Formats a date as `YYYY-MM-DDTHH:MM:SSZ` in UTC, whole seconds, as Apple writes it.
  ///
  /// - Returns: The text, or `nil` when the date is not finite or outside ``dateRange``.
  static func dateText(_ date: Date) -> String? {
    let total = date.timeIntervalSince1970.rounded(.down)
    guard dateRange.contains(total) else { return nil }
    let totalSeconds = Int64(total)
    var days = totalSeconds / 86_400
    var secondsOfDay = totalSeconds % 86_400
    if secondsOfDay < 0 {
      secondsOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = CivilCalendar.date(days: Int(days))
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(abs(value))
      return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count))
        + digits
    }
    return
      "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int(secondsOfDay / 3600), 2)):"
      + "\(pad(Int(secondsOfDay / 60 % 60), 2)):\(pad(Int(secondsOfDay % 60), 2))Z"
  }

  /// Decodes base64, skipping whitespace.
  ///
  /// Padding is optional at the end, and a padded group may be followed by more groups
  /// (`AA==AA==`), as Apple's reader allows; a lone trailing character, or a character after
  /// the padding inside its group, is an error.
  ///
  /// - Returns: The bytes, or the index of the first offending byte within `text`.
  static func base64(_ text: ArraySlice<UInt8>) -> Result<Data, Base64Failure> {
    var output = Data()
    output.reserveCapacity(text.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    var groupLength = 0
    var padding = 0
    for (position, byte) in zip(text.indices, text) {
      let value: UInt32
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(byte - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(byte - UInt8(ascii: "a") + 26)
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0") + 52)
      case UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "/"): value = 63
      case UInt8(ascii: "="):
        // Padding completes a group of at least two characters; leftover bits are dropped.
        guard groupLength >= 2 else { return .failure(Base64Failure(index: position)) }
        padding += 1
        groupLength += 1
        if groupLength == 4 {
          groupLength = 0
          padding = 0
          bits = 0
          accumulator = 0
        }
        continue
      case _ where isWhitespace(byte): continue
      default: return .failure(Base64Failure(index: position))
      }
      guard padding == 0 else { return .failure(Base64Failure(index: position)) }
      accumulator = accumulator << 6 | value
      bits += 6
      groupLength = (groupLength + 1) % 4
      if bits >= 8 {
        bits -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        accumulator &= (1 << UInt32(bits)) - 1
      }
      if groupLength == 0 {
        bits = 0
        accumulator = 0
      }
    }
    // Six leftover bits can never form a byte: a lone trailing character.
    guard groupLength != 1 else { return .failure(Base64Failure(index: text.endIndex)) }
    return .success(output)
  }

  /// Where base64 text went wrong.
  struct Base64Failure: Error {
    /// The index of the offending byte in the text given (its end when the text stops short).
    var index: Int
  }

  private static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
