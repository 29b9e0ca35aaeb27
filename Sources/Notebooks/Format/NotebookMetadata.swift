import Documents
import FolioSystem
public import FoundationEssentials

/// What a notebook's `metadata.json` holds: its title, its pages in reading order, and
/// any other members, kept as written.
///
/// The shape is the one of Apple's notebook sample (`title`, `pageOrder`), so a
/// document written with it reads back there; members the sample does not know
/// (written by a newer version, or by hand) are kept in ``otherMembers`` and written
/// back, so saving a notebook loses nothing.
public struct NotebookMetadata: Codable, Sendable, Hashable {
  /// The notebook's title.
  public var title: String
  /// The pages' identifiers in reading order.
  public var pageOrder: [UUID]
  /// The other members of `metadata.json`, by name.
  public var otherMembers: [String: JSONValue]

  /// Creates metadata.
  ///
  /// - Parameters:
  ///   - title: The notebook's title.
  ///   - pageOrder: The pages' identifiers in reading order.
  ///   - otherMembers: Any other members to write.
  public init(title: String, pageOrder: [UUID], otherMembers: [String: JSONValue] = [:]) {
    self.title = title
    self.pageOrder = pageOrder
    self.otherMembers = otherMembers
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
    static let title = Key(stringValue: "title")
    static let pageOrder = Key(stringValue: "pageOrder")
  }

  /// Decodes `metadata.json`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when `title` or `pageOrder` is missing or of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    title = try container.decode(String.self, forKey: .title)
    pageOrder = try container.decode([UUID].self, forKey: .pageOrder)
    var others: [String: JSONValue] = [:]
    for key in container.allKeys where key.stringValue != "title" && key.stringValue != "pageOrder"
    {
      others[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
    }
    otherMembers = others
  }

  /// Encodes `title`, `pageOrder` and the other members.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(title, forKey: .title)
    try container.encode(pageOrder, forKey: .pageOrder)
    for (name, value) in otherMembers {
      try container.encode(value, forKey: Key(stringValue: name))
    }
  }

  /// `metadata.json` as the sample lays it out: two-space indent, `title`, then
  /// `pageOrder` one identifier a line, then the other members in key order.
  public var jsonText: String {
    let order = pageOrder.map { "    " + JSONText.quote($0.uuidString) }
    let list = order.isEmpty ? "[]" : "[\n" + order.joined(separator: ",\n") + "\n  ]"
    var text = "{\n  \"title\": \(JSONText.quote(title)),\n  \"pageOrder\": \(list)"
    for name in otherMembers.keys.sorted() {
      text +=
        ",\n  \(JSONText.quote(name)): \((otherMembers[name] ?? .null).jsonText(indent: 2, level: 1))"
    }
    return text + "\n}\n"
  }
}
