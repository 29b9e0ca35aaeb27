import FolioSystem
import FoundationEssentials

/// Writes Apple's XML property list layout: the declaration, the `DOCTYPE`, tab indentation.
enum XMLPropertyListWriter {
  static let header = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">

    """

  /// Serialises a value, stopping once the output passes `limit`.
  ///
  /// - Parameters:
  ///   - value: The top-level value.
  ///   - limit: The most bytes to write; past them ``OutputLimitReached`` is thrown.
  static func data(for value: PropertyListValue, limit: Int = .max) throws -> Data {
    var output: [UInt8] = []
    output.reserveCapacity(4096)
    output.append(contentsOf: header.utf8)
    try append(value, indent: 0, to: &output, limit: limit)
    output.append(contentsOf: "</plist>\n".utf8)
    return Data(output)
  }

  private static func append(
    _ value: PropertyListValue, indent: Int, to output: inout [UInt8], limit: Int
  ) throws {
    if output.count > limit { throw OutputLimitReached() }
    func tabs(_ count: Int) { output.append(contentsOf: repeatElement(0x09, count: count)) }
    func line(_ text: String) {
      tabs(indent)
      output.append(contentsOf: text.utf8)
      output.append(0x0A)
    }
    switch value.content {
    case .dictionary(let entries):
      if entries.isEmpty { return line("<dict/>") }
      line("<dict>")
      for entry in entries {
        tabs(indent + 1)
        output.append(contentsOf: "<key>".utf8)
        try appendEscaped(entry.key, to: &output, location: entry.keyLocation)
        output.append(contentsOf: "</key>\n".utf8)
        try append(entry.value, indent: indent + 1, to: &output, limit: limit)
      }
      line("</dict>")
    case .array(let items):
      if items.isEmpty { return line("<array/>") }
      line("<array>")
      for item in items { try append(item, indent: indent + 1, to: &output, limit: limit) }
      line("</array>")
    case .string(let string):
      tabs(indent)
      output.append(contentsOf: "<string>".utf8)
      try appendEscaped(string, to: &output, location: value.location)
      output.append(contentsOf: "</string>\n".utf8)
    case .integer(let number): line("<integer>\(number)</integer>")
    case .unsignedInteger(let number): line("<integer>\(number)</integer>")
    case .real(let number): line("<real>\(realText(number))</real>")
    case .boolean(let flag): line(flag ? "<true/>" : "<false/>")
    case .date(let date):
      guard let text = PropertyListScalarSyntax.dateText(date) else {
        throw PropertyListError(
          .unrepresentable,
          "the date \(date.timeIntervalSinceReferenceDate) seconds after 2001 is outside the years an XML property list can write",
          location: value.location)
      }
      line("<date>\(text)</date>")
    case .data(let bytes):
      line("<data>")
      // Apple's layout: base64 lines of 76 columns less 8 per indent level, indented like the tag.
      let width = max(16, (76 - 8 * indent) / 4 * 4)
      let encoded = Array(bytes.base64EncodedString().utf8)
      var start = 0
      while start < encoded.count {
        let end = min(start + width, encoded.count)
        tabs(indent)
        output.append(contentsOf: encoded[start..<end])
        output.append(0x0A)
        start = end
      }
      line("</data>")
    }
  }

  /// A real as Apple writes it: `nan`, `+infinity`, `-infinity`, or the shortest decimal that
  /// reads back exactly (`3`, not `3.0`).
  static func realText(_ number: Double) -> String {
    if number.isNaN { return "nan" }
    if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
    var text = number.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }

  /// Appends text with `<`, `>` and `&` escaped and carriage returns as `&#13;` (which XML would
  /// otherwise turn into line feeds); refuses the control characters XML 1.0 cannot carry.
  private static func appendEscaped(
    _ text: String, to output: inout [UInt8], location: SourceLocation?
  ) throws {
    // U+FFFE and U+FFFF (UTF-8 EF BF BE/BF) are not XML 1.0 characters either.
    if text.utf8.contains(0xEF),
      let bad = text.unicodeScalars.first(where: { $0.value == 0xFFFE || $0.value == 0xFFFF })
    {
      throw PropertyListError(
        .unrepresentable,
        "the string '\(XMLPropertyListBuilder.shown(text))' holds U+\(String(bad.value, radix: 16, uppercase: true)), which XML 1.0 cannot carry; write it as binary instead",
        location: location)
    }
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
      case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
      case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
      case 0x0D: output.append(contentsOf: "&#13;".utf8)
      case 0x09, 0x0A: output.append(byte)
      case 0x00..<0x20:
        throw PropertyListError(
          .unrepresentable,
          "the string '\(XMLPropertyListBuilder.shown(text))' holds the control character U+\(byte.digits(4, radix: 16)), which XML 1.0 cannot carry; write it as binary instead",
          location: location)
      default: output.append(byte)
      }
    }
  }
}
