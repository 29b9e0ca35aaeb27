import Foundation
import PropertyLists

/// A property list as plain Swift values, for comparing Folio's reader with Foundation's.
indirect enum PlainValue: Equatable, CustomStringConvertible {
  case dictionary([String: PlainValue])
  case array([PlainValue])
  case string(String)
  case integer(Int64)
  case unsigned(UInt64)
  case real(Double)
  case boolean(Bool)
  case date(Double)
  case data(Data)

  static func == (lhs: PlainValue, rhs: PlainValue) -> Bool {
    switch (lhs, rhs) {
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.unsigned(let a), .unsigned(let b)): a == b
    case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
    case (.boolean(let a), .boolean(let b)): a == b
    case (.date(let a), .date(let b)): a == b
    case (.data(let a), .data(let b)): a == b
    default: false
    }
  }

  var description: String {
    switch self {
    case .dictionary(let d):
      "{" + d.keys.sorted().map { "\($0): \(d[$0]!)" }.joined(separator: ", ") + "}"
    case .array(let a): "[" + a.map(\.description).joined(separator: ", ") + "]"
    case .string(let s): s.debugDescription
    case .integer(let i): "\(i)"
    case .unsigned(let u): "\(u)u"
    case .real(let r): "\(r)r"
    case .boolean(let b): "\(b)"
    case .date(let d): "date(\(d))"
    case .data(let d): "data(\(d.base64EncodedString()))"
    }
  }

  /// Folio's value as plain values (a repeated key keeps its last value, as Foundation does).
  init(_ value: PropertyListValue) {
    switch value.content {
    case .dictionary(let entries):
      var dictionary: [String: PlainValue] = [:]
      for entry in entries { dictionary[entry.key] = PlainValue(entry.value) }
      self = .dictionary(dictionary)
    case .array(let items): self = .array(items.map(PlainValue.init))
    case .string(let s): self = .string(s)
    case .integer(let i): self = .integer(i)
    case .unsignedInteger(let u): self = .unsigned(u)
    case .real(let r): self = .real(r)
    case .boolean(let b): self = .boolean(b)
    case .date(let d): self = .date(d.timeIntervalSinceReferenceDate)
    case .data(let d): self = .data(d)
    }
  }

  /// Foundation's value as plain values.
  init?(foundation value: Any) {
    let dynamicType = Swift.type(of: value)
    if dynamicType == Bool.self, let flag = value as? Bool {
      self = .boolean(flag)
      return
    }
    switch value {
    case let value as [String: Any]:
      var dictionary: [String: PlainValue] = [:]
      for (key, item) in value {
        guard let plain = PlainValue(foundation: item) else { return nil }
        dictionary[key] = plain
      }
      self = .dictionary(dictionary)
    case let value as [Any]:
      var items: [PlainValue] = []
      for item in value {
        guard let plain = PlainValue(foundation: item) else { return nil }
        items.append(plain)
      }
      self = .array(items)
    case let value as String: self = .string(value)
    case let value as Date: self = .date(value.timeIntervalSinceReferenceDate)
    case let value as Data: self = .data(value)
    case let value as NSNumber:
      let type = String(cString: value.objCType)
      switch type {
      case "d", "f": self = .real(value.doubleValue)
      case "Q", "L", "I", "S", "C":
        let unsigned = value.uint64Value
        self = unsigned <= UInt64(Int64.max) ? .integer(Int64(unsigned)) : .unsigned(unsigned)
      default: self = .integer(value.int64Value)
      }
    case let value as Int: self = .integer(Int64(value))
    case let value as Int64: self = .integer(value)
    case let value as UInt64:
      self = value <= UInt64(Int64.max) ? .integer(Int64(value)) : .unsigned(value)
    case let value as Double: self = .real(value)
    default: return nil
    }
  }
}

/// Reads bytes with Foundation's `PropertyListSerialization`.
func foundationPlainValue(_ data: Data) throws -> PlainValue? {
  let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
  return PlainValue(foundation: object)
}
