import Documents
import FolioSystem
import FoundationEssentials

/// A JSON value of any shape, kept as read so it can be written back unchanged.
///
/// Whole numbers keep their exact value (up to 64 bits); other numbers are kept as the
/// closest `Double`. ``NotebookMetadata`` keeps the members of `metadata.json` it does
/// not interpret in this form.
public enum JSONValue: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  /// A number, as its JSON text.
  case number(String)
  case string(String)
  case array([JSONValue])
  /// An object's members; written back in key order.
  case object([String: JSONValue])

  /// Decodes any JSON value.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the value is not JSON.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let whole = try? container.decode(Int64.self) {
      self = .number(String(whole))
    } else if let number = try? container.decode(Double.self) {
      self = .number(
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)")
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let items = try? container.decode([JSONValue].self) {
      self = .array(items)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  /// Encodes the value.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let flag): try container.encode(flag)
    case .number(let text):
      if let whole = Int64(text) {
        try container.encode(whole)
      } else {
        try container.encode(Double(text) ?? 0)
      }
    case .string(let text): try container.encode(text)
    case .array(let items): try container.encode(items)
    case .object(let members): try container.encode(members)
    }
  }

  /// The value as JSON text: keys sorted, indented by `indent` spaces per level from
  /// `level`, or on one line when `indent` is 0.
  ///
  /// - Parameters:
  ///   - indent: Spaces per level; 0 for compact text.
  ///   - level: The nesting level the value starts at.
  /// - Returns: The text, without a trailing newline.
  public func jsonText(indent: Int = 0, level: Int = 0) -> String {
    let pad = { (depth: Int) in
      indent == 0 ? "" : "\n" + String(repeating: " ", count: indent * depth)
    }
    switch self {
    case .null: return "null"
    case .bool(let flag): return flag ? "true" : "false"
    case .number(let text): return text
    case .string(let text): return JSONText.quote(text)
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      let inner = items.map { pad(level + 1) + $0.jsonText(indent: indent, level: level + 1) }
      return "[" + inner.joined(separator: ",") + pad(level) + "]"
    case .object(let members):
      guard !members.isEmpty else { return "{}" }
      let separator = indent == 0 ? ":" : ": "
      let inner = members.keys.sorted().map { key in
        pad(level + 1) + JSONText.quote(key) + separator
          + (members[key] ?? .null).jsonText(indent: indent, level: level + 1)
      }
      return "{" + inner.joined(separator: ",") + pad(level) + "}"
    }
  }
}
