public import FolioSystem
public import FoundationEssentials

/// One value of a property list, with the place it came from.
///
/// A dictionary keeps its keys in document order and keeps duplicates (so a
/// validator can report them); lookups return the last occurrence, as
/// Foundation does. Equality and hashing compare content only: two values read
/// from different files at different lines are equal when they hold the same
/// data.
public struct PropertyListValue: Sendable, CustomStringConvertible {
  /// The content of a value.
  public enum Content: Sendable {
    case dictionary([DictionaryEntry])
    case array([PropertyListValue])
    case string(String)
    /// A signed integer in the 64-bit range.
    case integer(Int64)
    /// An integer above `Int64.max`; binary plists store these as 128-bit integers.
    case unsignedInteger(UInt64)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
  }

  /// One key and its value inside a dictionary, each with its own location.
  public struct DictionaryEntry: Sendable {
    /// The key text.
    public var key: String
    /// Where the key itself is (the `<key>` element, or the key object).
    public var keyLocation: SourceLocation?
    /// The value stored under the key.
    public var value: PropertyListValue

    /// Creates a dictionary entry.
    ///
    /// - Parameters:
    ///   - key: The key text.
    ///   - keyLocation: Where the key is.
    ///   - value: The value stored under the key.
    public init(key: String, keyLocation: SourceLocation? = nil, value: PropertyListValue) {
      self.key = key
      self.keyLocation = keyLocation
      self.value = value
    }
  }

  /// What the value holds.
  public var content: Content
  /// Where the value starts in its source, if it was read from one.
  public var location: SourceLocation?

  /// Creates a value.
  ///
  /// - Parameters:
  ///   - content: What the value holds.
  ///   - location: Where it came from.
  public init(_ content: Content, location: SourceLocation? = nil) {
    self.content = content
    self.location = location
  }

  /// A short name for the value's kind as property lists spell it (`string`, `dict`, …).
  public var kindName: String {
    switch content {
    case .dictionary: "dict"
    case .array: "array"
    case .string: "string"
    case .integer, .unsignedInteger: "integer"
    case .real: "real"
    case .boolean: "boolean"
    case .date: "date"
    case .data: "data"
    }
  }

  public var description: String {
    switch content {
    case .dictionary(let entries):
      "{" + entries.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "}"
    case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
    case .string(let string): string.debugDescription
    case .integer(let value): String(value)
    case .unsignedInteger(let value): String(value)
    case .real(let value): String(value)
    case .boolean(let value): String(value)
    case .date(let value): value.ISO8601Format()
    case .data(let value): "<\(value.count) bytes>"
    }
  }
}

// MARK: - Convenient access

extension PropertyListValue {
  /// The string, if this is a string.
  public var stringValue: String? {
    if case .string(let value) = content { return value }
    return nil
  }

  /// The items, if this is an array.
  public var arrayValue: [PropertyListValue]? {
    if case .array(let value) = content { return value }
    return nil
  }

  /// The entries in document order, if this is a dictionary.
  public var dictionaryEntries: [DictionaryEntry]? {
    if case .dictionary(let value) = content { return value }
    return nil
  }

  /// The boolean, if this is a boolean.
  public var boolValue: Bool? {
    if case .boolean(let value) = content { return value }
    return nil
  }

  /// The entry for `key` in a dictionary (the last one, if the key repeats).
  ///
  /// - Parameter key: The key to look up; compared exactly.
  /// - Returns: The entry, or `nil` when absent or when this is not a dictionary.
  public func entry(forKey key: String) -> DictionaryEntry? {
    dictionaryEntries?.last { $0.key == key }
  }

  /// The value for `key` in a dictionary (the last one, if the key repeats).
  public subscript(key: String) -> PropertyListValue? {
    entry(forKey: key)?.value
  }
}

// MARK: - Content equality

extension PropertyListValue: Equatable, Hashable {
  /// Compares content only; locations are ignored.
  public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
    switch (lhs.content, rhs.content) {
    case (.dictionary(let a), .dictionary(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    case (.array(let a), .array(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.unsignedInteger(let a), .unsignedInteger(let b)): a == b
    case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
    case (.boolean(let a), .boolean(let b)): a == b
    case (.date(let a), .date(let b)): a == b
    case (.data(let a), .data(let b)): a == b
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch content {
    case .dictionary(let entries):
      hasher.combine(0)
      for entry in entries {
        hasher.combine(entry.key)
        hasher.combine(entry.value)
      }
    case .array(let items):
      hasher.combine(1)
      hasher.combine(items)
    case .string(let value):
      hasher.combine(2)
      hasher.combine(value)
    case .integer(let value):
      hasher.combine(3)
      hasher.combine(value)
    case .unsignedInteger(let value):
      hasher.combine(4)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(5)
      hasher.combine(value.isNaN ? .nan : value)
    case .boolean(let value):
      hasher.combine(6)
      hasher.combine(value)
    case .date(let value):
      hasher.combine(7)
      hasher.combine(value)
    case .data(let value):
      hasher.combine(8)
      hasher.combine(value)
    }
  }
}
