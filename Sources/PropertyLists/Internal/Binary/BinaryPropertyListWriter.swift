import FoundationEssentials

/// Writes Apple's binary property list format, `bplist00`.
///
/// Equal scalars (strings compared byte for byte, numbers, dates, data) are
/// stored once and referenced from every place they occur, as Apple's writer
/// does; containers are always distinct objects. Offsets and references use
/// the fewest bytes that hold the largest value.
enum BinaryPropertyListWriter {
  private enum ScalarKey: Hashable {
    case string([UInt8])
    case integer(Int64)
    case unsigned(UInt64)
    case real(UInt64)
    case boolean(Bool)
    case date(UInt64)
    case data(Data)
  }

  private enum Object {
    case scalar(PropertyListValue.Content)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private struct Flattener {
    var objects: [Object] = []
    var unique: [ScalarKey: Int] = [:]

    mutating func add(_ value: PropertyListValue) -> Int {
      switch value.content {
      case .array(let items):
        let index = objects.count
        objects.append(.array([]))
        let references = items.map { add($0) }
        objects[index] = .array(references)
        return index
      case .dictionary(let entries):
        let index = objects.count
        objects.append(.array([]))
        let keys = entries.map { addScalar(.string($0.key)) }
        let values = entries.map { add($0.value) }
        objects[index] = .dictionary(keys: keys, values: values)
        return index
      default:
        return addScalar(value.content)
      }
    }

    mutating func addScalar(_ content: PropertyListValue.Content) -> Int {
      let key: ScalarKey
      switch content {
      case .string(let string): key = .string(Array(string.utf8))
      case .integer(let number): key = .integer(number)
      case .unsignedInteger(let number): key = .unsigned(number)
      case .real(let number): key = .real(number.bitPattern)
      case .boolean(let flag): key = .boolean(flag)
      case .date(let date): key = .date(date.timeIntervalSinceReferenceDate.bitPattern)
      case .data(let bytes): key = .data(bytes)
      case .array, .dictionary: preconditionFailure("containers are never shared")
      }
      if let existing = unique[key] { return existing }
      let index = objects.count
      objects.append(.scalar(content))
      unique[key] = index
      return index
    }
  }

  static func data(for value: PropertyListValue) throws -> Data {
    var flattener = Flattener()
    _ = flattener.add(value)
    let objects = flattener.objects
    let referenceSize = byteCount(UInt64(objects.count - 1))
    var output: [UInt8] = Array("bplist00".utf8)
    var offsets: [Int] = []
    offsets.reserveCapacity(objects.count)

    func appendBigEndian(_ value: UInt64, width: Int) {
      for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
        output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
      }
    }
    func appendHeader(_ marker: UInt8, count: Int) {
      if count < 15 {
        output.append(marker | UInt8(count))
      } else {
        output.append(marker | 0x0F)
        appendInteger(Int64(count))
      }
    }
    func appendInteger(_ number: Int64) {
      if number < 0 {
        output.append(0x13)
        appendBigEndian(UInt64(bitPattern: number), width: 8)
      } else if number < 1 << 8 {
        output.append(0x10)
        appendBigEndian(UInt64(number), width: 1)
      } else if number < 1 << 16 {
        output.append(0x11)
        appendBigEndian(UInt64(number), width: 2)
      } else if number < 1 << 32 {
        output.append(0x12)
        appendBigEndian(UInt64(number), width: 4)
      } else {
        output.append(0x13)
        appendBigEndian(UInt64(number), width: 8)
      }
    }

    for object in objects {
      offsets.append(output.count)
      switch object {
      case .array(let references):
        appendHeader(0xA0, count: references.count)
        for reference in references { appendBigEndian(UInt64(reference), width: referenceSize) }
      case .dictionary(let keys, let values):
        appendHeader(0xD0, count: keys.count)
        for reference in keys { appendBigEndian(UInt64(reference), width: referenceSize) }
        for reference in values { appendBigEndian(UInt64(reference), width: referenceSize) }
      case .scalar(let content):
        switch content {
        case .boolean(let flag): output.append(flag ? 0x09 : 0x08)
        case .integer(let number): appendInteger(number)
        case .unsignedInteger(let number):
          // Above Int64.max: a 16-byte integer whose high half is zero, as Apple writes it.
          output.append(0x14)
          appendBigEndian(0, width: 8)
          appendBigEndian(number, width: 8)
        case .real(let number):
          output.append(0x23)
          appendBigEndian(number.bitPattern, width: 8)
        case .date(let date):
          output.append(0x33)
          appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8)
        case .data(let bytes):
          appendHeader(0x40, count: bytes.count)
          output.append(contentsOf: bytes)
        case .string(let string):
          if string.utf8.allSatisfy({ $0 < 0x80 }) {
            appendHeader(0x50, count: string.utf8.count)
            output.append(contentsOf: string.utf8)
          } else {
            let units = Array(string.utf16)
            appendHeader(0x60, count: units.count)
            for unit in units { appendBigEndian(UInt64(unit), width: 2) }
          }
        case .array, .dictionary:
          break
        }
      }
    }

    let tableOffset = output.count
    let offsetSize = byteCount(UInt64(offsets.last ?? 0))
    for offset in offsets { appendBigEndian(UInt64(offset), width: offsetSize) }
    output.append(contentsOf: [0, 0, 0, 0, 0, 0])
    output.append(UInt8(offsetSize))
    output.append(UInt8(referenceSize))
    appendBigEndian(UInt64(objects.count), width: 8)
    appendBigEndian(0, width: 8)
    appendBigEndian(UInt64(tableOffset), width: 8)
    return Data(output)
  }

  /// The fewest bytes (1 to 8) that hold `value`.
  static func byteCount(_ value: UInt64) -> Int {
    var size = 1
    while size < 8 && value >> UInt64(size * 8) != 0 { size += 1 }
    return size
  }
}
