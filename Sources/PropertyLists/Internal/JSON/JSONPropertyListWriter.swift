import FolioSystem
import FoundationEssentials

/// Writes the compact JSON `plutil -convert json` writes: no spaces, keys in stored order,
/// `/` escaped as `\/`, non-ASCII text as UTF-8.
enum JSONPropertyListWriter {
  /// Serialises a value, stopping once the output passes `limit`.
  ///
  /// - Parameters:
  ///   - value: The top-level value.
  ///   - limit: The most bytes to write; past them ``OutputLimitReached`` is thrown.
  static func data(for value: PropertyListValue, limit: Int = .max) throws -> Data {
    switch value.content {
    case .dictionary, .array: break
    default:
      throw PropertyListError(
        .unrepresentable,
        "a JSON property list must be a dictionary or an array at the top, not a \(value.kindName)",
        location: value.location)
    }
    var output: [UInt8] = []
    output.reserveCapacity(4096)
    try append(value, to: &output, limit: limit)
    return Data(output)
  }

  private static func append(_ value: PropertyListValue, to output: inout [UInt8], limit: Int)
    throws
  {
    if output.count > limit { throw OutputLimitReached() }
    switch value.content {
    case .dictionary(let entries):
      output.append(UInt8(ascii: "{"))
      for (index, entry) in entries.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendString(entry.key, to: &output)
        output.append(UInt8(ascii: ":"))
        try append(entry.value, to: &output, limit: limit)
      }
      output.append(UInt8(ascii: "}"))
    case .array(let items):
      output.append(UInt8(ascii: "["))
      for (index, item) in items.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        try append(item, to: &output, limit: limit)
      }
      output.append(UInt8(ascii: "]"))
    case .string(let string): appendString(string, to: &output)
    case .integer(let number): output.append(contentsOf: String(number).utf8)
    case .unsignedInteger(let number): output.append(contentsOf: String(number).utf8)
    case .real(let number):
      guard number.isFinite else {
        throw PropertyListError(
          .unrepresentable, "JSON cannot hold the real \(number)", location: value.location)
      }
      output.append(contentsOf: XMLPropertyListWriter.realText(number).utf8)
    case .boolean(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .date, .data:
      throw PropertyListError(
        .unrepresentable,
        "JSON cannot hold a \(value.kindName) value (as plutil says: invalid object in plist for JSON format)",
        location: value.location)
    }
  }

  private static func appendString(_ string: String, to output: inout [UInt8]) {
    JSONText.appendQuoted(string, to: &output, escapingSolidus: true)
  }
}
