import FolioSystem
import FoundationEssentials

/// Reads Apple's binary property list format (`bplist00`), checking every offset it follows.
///
/// Layout: an 8-byte header, the objects, an offset table (one big-endian
/// offset of 1–8 bytes per object) and a 32-byte trailer giving the offset and
/// reference widths, the object count, the top object and the table's offset.
/// Every read is bounds-checked against the object area, declared lengths are
/// checked against the bytes left before anything is allocated, containers
/// that contain themselves are refused, and shared references are resolved
/// once, with a cap on how far they may expand. Errors name the byte offset.
struct BinaryPropertyListReader {
  /// The bytes of the header, trailer and smallest possible object table.
  static let minimumSize = 8 + 1 + 1 + 32
  /// The most values any document may expand to through shared references.
  static let maximumExpandedValues = 16_000_000
  /// Below the absolute cap, a document may expand to this many values per object it holds
  /// (or to ``minimumExpansionAllowance`` values, whichever is more): shared strings and numbers
  /// are normal, a few kilobytes that unfold into millions of values are a bomb.
  static let expansionPerObject = 64
  /// The expansion every document is allowed, however few objects it has.
  static let minimumExpansionAllowance = 1_000_000

  private let bytes: UnsafeRawBufferPointer
  private let file: String
  private let maximumDepth: Int
  private let offsetSize: Int
  private let referenceSize: Int
  private let objectCount: Int
  private let offsetTableOffset: Int
  private var cache: [PropertyListValue?]
  private var expandedSizes: [Int]
  private var visiting: [Bool]
  private var depth = 0
  private var diagnostics: [Diagnostic] = []
  private var duplicateKeys = DuplicateKeyWarnings()
  private var expansionLimit: Int {
    min(
      Self.maximumExpandedValues,
      max(Self.minimumExpansionAllowance, objectCount * Self.expansionPerObject))
  }

  /// Reads a binary property list.
  ///
  /// - Parameters:
  ///   - bytes: The whole file, starting with `bplist`.
  ///   - file: The name used in locations.
  ///   - options: The depth limit.
  /// - Returns: The document; every location carries the byte offset of its object.
  /// - Throws: ``PropertyListError`` naming the byte offset of the problem.
  static func read(
    _ bytes: UnsafeRawBufferPointer, file: String, options: PropertyListReadOptions
  ) throws -> PropertyListDocument {
    func failure(_ code: PropertyListError.Code, _ message: String, at offset: Int)
      -> PropertyListError
    {
      PropertyListError(code, message, location: SourceLocation(file: file, byteOffset: offset))
    }
    guard bytes.count >= 8, bytes.starts(with: "bplist00".utf8) else {
      let version = String(decoding: bytes.prefix(8), as: UTF8.self)
      throw failure(
        .unsupportedFormat,
        "'\(version)' is not a binary property list version Folio reads (only bplist00)", at: 0)
    }
    guard bytes.count >= minimumSize else {
      throw failure(
        .truncatedBinary,
        "the file is \(bytes.count) bytes, too short for a binary property list (at least \(minimumSize))",
        at: bytes.count)
    }
    let trailer = bytes.count - 32
    let offsetSize = Int(bytes[trailer + 6])
    let referenceSize = Int(bytes[trailer + 7])
    let objectCount = readUnsigned(bytes, at: trailer + 8, width: 8)
    let topObject = readUnsigned(bytes, at: trailer + 16, width: 8)
    let tableOffset = readUnsigned(bytes, at: trailer + 24, width: 8)
    guard (1...8).contains(offsetSize) else {
      throw failure(
        .invalidBinary, "the trailer's offset width \(offsetSize) is not 1 to 8 bytes",
        at: trailer + 6)
    }
    guard (1...8).contains(referenceSize) else {
      throw failure(
        .invalidBinary, "the trailer's reference width \(referenceSize) is not 1 to 8 bytes",
        at: trailer + 7)
    }
    guard objectCount >= 1, objectCount <= UInt64(trailer) else {
      throw failure(
        .truncatedBinary,
        "the trailer declares \(objectCount) objects, which a \(bytes.count)-byte file cannot hold",
        at: trailer + 8)
    }
    guard topObject < objectCount else {
      throw failure(
        .invalidOffset, "the top object \(topObject) is not one of the \(objectCount) objects",
        at: trailer + 16)
    }
    let tableBytes = objectCount * UInt64(offsetSize)
    guard tableOffset >= 9, tableOffset <= UInt64(trailer),
      tableBytes <= UInt64(trailer) - tableOffset
    else {
      throw failure(
        .invalidOffset,
        "the offset table at \(tableOffset) (\(objectCount) entries of \(offsetSize) bytes) does not fit between the header and the trailer at \(trailer)",
        at: trailer + 24)
    }
    var reader = BinaryPropertyListReader(
      bytes: bytes, file: file, maximumDepth: options.maximumDepth, offsetSize: offsetSize,
      referenceSize: referenceSize, objectCount: Int(objectCount),
      offsetTableOffset: Int(tableOffset))
    let root = try reader.object(Int(topObject), referencedAt: trailer + 16)
    return PropertyListDocument(
      root: root, format: .binary,
      diagnostics: reader.diagnostics + reader.duplicateKeys.diagnostics(file: file))
  }

  private init(
    bytes: UnsafeRawBufferPointer, file: String, maximumDepth: Int, offsetSize: Int,
    referenceSize: Int, objectCount: Int, offsetTableOffset: Int
  ) {
    self.bytes = bytes
    self.file = file
    self.maximumDepth = maximumDepth
    self.offsetSize = offsetSize
    self.referenceSize = referenceSize
    self.objectCount = objectCount
    self.offsetTableOffset = offsetTableOffset
    self.cache = Array(repeating: nil, count: objectCount)
    self.expandedSizes = Array(repeating: 0, count: objectCount)
    self.visiting = Array(repeating: false, count: objectCount)
  }

  private static func readUnsigned(_ bytes: UnsafeRawBufferPointer, at offset: Int, width: Int)
    -> UInt64
  {
    var value: UInt64 = 0
    for index in offset..<(offset + width) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  private func failure(_ code: PropertyListError.Code, _ message: String, at offset: Int)
    -> PropertyListError
  {
    PropertyListError(code, message, location: SourceLocation(file: file, byteOffset: offset))
  }

  /// Checks that `count` bytes from `offset` lie inside the object area.
  private func require(_ count: Int, at offset: Int, for what: String, object: Int) throws {
    guard count >= 0, offset >= 0, offset <= offsetTableOffset, count <= offsetTableOffset - offset
    else {
      throw failure(
        .truncatedBinary,
        "the \(what) of the object at \(object) needs \(count) bytes at \(offset), past the end of the object area at \(offsetTableOffset)",
        at: object)
    }
  }

  // MARK: Objects

  private mutating func object(_ index: Int, referencedAt referenceOffset: Int) throws
    -> PropertyListValue
  {
    guard index >= 0, index < objectCount else {
      throw failure(
        .invalidOffset, "reference \(index) is not one of the \(objectCount) objects",
        at: referenceOffset)
    }
    if let cached = cache[index] { return cached }
    guard !visiting[index] else {
      throw failure(
        .referenceCycle, "object \(index) contains itself (a reference cycle)", at: referenceOffset)
    }
    let entry = offsetTableOffset + index * offsetSize
    // An 8-byte entry can exceed Int.max; compare before converting so it is refused, not trapped.
    let stored = Self.readUnsigned(bytes, at: entry, width: offsetSize)
    guard stored >= 8, stored < UInt64(offsetTableOffset) else {
      throw failure(
        .invalidOffset,
        "object \(index) has offset \(stored), outside the object area 8..<\(offsetTableOffset)",
        at: entry)
    }
    let offset = Int(stored)
    visiting[index] = true
    defer { visiting[index] = false }
    let (value, size) = try decode(at: offset)
    cache[index] = value
    expandedSizes[index] = size
    return value
  }

  /// Decodes the object at `offset`; returns it and how many values it expands to.
  private mutating func decode(at offset: Int) throws -> (PropertyListValue, Int) {
    let location = SourceLocation(file: file, byteOffset: offset)
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    func value(_ content: PropertyListValue.Content) -> (PropertyListValue, Int) {
      (PropertyListValue(content, location: location), 1)
    }
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return value(.boolean(false))
      case 0x09: return value(.boolean(true))
      default:
        throw failure(
          .invalidBinary,
          "marker 0x\(String(marker, radix: 16)) (null or fill) is not a property list value",
          at: offset)
      }
    case 0x1:
      return value(try integer(at: offset, exponent: low))
    case 0x2:
      guard low == 2 || low == 3 else {
        throw failure(.invalidBinary, "a real of \(1 << low) bytes (only 4 or 8)", at: offset)
      }
      try require(1 << low, at: offset + 1, for: "real", object: offset)
      let bits = Self.readUnsigned(bytes, at: offset + 1, width: 1 << low)
      return value(
        .real(low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)))
    case 0x3:
      guard marker == 0x33 else {
        throw failure(
          .invalidBinary, "marker 0x\(String(marker, radix: 16)) is not a date", at: offset)
      }
      try require(8, at: offset + 1, for: "date", object: offset)
      let seconds = Double(bitPattern: Self.readUnsigned(bytes, at: offset + 1, width: 8))
      return value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
    case 0x4:
      let (count, start) = try length(at: offset)
      try require(count, at: start, for: "data", object: offset)
      return value(.data(Data(bytes[start..<(start + count)])))
    case 0x5:
      let (count, start) = try length(at: offset)
      try require(count, at: start, for: "string", object: offset)
      let body = UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)])
      guard !body.contains(where: { $0 >= 0x80 }) else {
        throw failure(.invalidString, "an ASCII string holds a byte above 127", at: offset)
      }
      return value(.string(String(decoding: body, as: UTF8.self)))
    case 0x6:
      let (units, start) = try length(at: offset)
      guard units <= Int.max / 2 else {
        throw failure(.truncatedBinary, "a string of \(units) UTF-16 units", at: offset)
      }
      try require(units * 2, at: start, for: "string", object: offset)
      var codeUnits: [UInt16] = []
      codeUnits.reserveCapacity(units)
      for unit in 0..<units {
        codeUnits.append(UInt16(bytes[start + unit * 2]) << 8 | UInt16(bytes[start + unit * 2 + 1]))
      }
      guard let string = String(validating: codeUnits, as: UTF16.self) else {
        throw failure(.invalidString, "a UTF-16 string holds an unpaired surrogate", at: offset)
      }
      return value(.string(string))
    case 0x8:
      let width = low + 1
      try require(width, at: offset + 1, for: "UID", object: offset)
      let uid = Self.readUnsigned(bytes, at: offset + 1, width: width)
      // Keyed archives' UIDs read as XML spells them: a dictionary with the key CF$UID.
      let number = PropertyListValue(
        uid <= UInt64(Int64.max) ? .integer(Int64(uid)) : .unsignedInteger(uid), location: location)
      return (
        PropertyListValue(
          .dictionary([.init(key: "CF$UID", keyLocation: location, value: number)]),
          location: location), 2
      )
    case 0xA:
      let (count, start) = try references(at: offset)
      try enter(offset)
      defer { depth -= 1 }
      var items: [PropertyListValue] = []
      items.reserveCapacity(count)
      var size = 1
      for position in 0..<count {
        let referenceOffset = start + position * referenceSize
        let index = reference(at: referenceOffset)
        items.append(try object(index, referencedAt: referenceOffset))
        size = try grow(size, by: expandedSizes[index], at: offset)
      }
      return (PropertyListValue(.array(items), location: location), size)
    case 0xD:
      let (count, start) = try references(at: offset, perEntry: 2)
      try enter(offset)
      defer { depth -= 1 }
      var entries: [PropertyListValue.DictionaryEntry] = []
      entries.reserveCapacity(count)
      var firstOffsets: [String: Int] = [:]
      var size = 1
      for position in 0..<count {
        let keyReference = start + position * referenceSize
        let valueReference = start + (count + position) * referenceSize
        let keyIndex = reference(at: keyReference)
        let key = try object(keyIndex, referencedAt: keyReference)
        guard let keyText = key.stringValue else {
          throw failure(
            .invalidBinary, "a dictionary key is a \(key.kindName), not a string",
            at: key.location?.byteOffset ?? keyReference)
        }
        let valueIndex = reference(at: valueReference)
        let item = try object(valueIndex, referencedAt: valueReference)
        size = try grow(size, by: expandedSizes[valueIndex], at: offset)
        if let first = firstOffsets[keyText] {
          duplicateKeys.record(
            Diagnostic(
              severity: .warning, code: Diagnostic.duplicateKeyCode,
              message:
                "key '\(XMLPropertyListBuilder.shown(keyText))' repeats in the dictionary at byte \(offset) (first key object at byte \(first)); the first value wins, as Foundation reads binary property lists",
              location: key.location, hint: "remove one of the entries"))
        } else {
          firstOffsets[keyText] = key.location?.byteOffset ?? offset
        }
        entries.append(.init(key: keyText, keyLocation: key.location, value: item))
      }
      return (PropertyListValue(.dictionary(entries), location: location), size)
    default:
      throw failure(
        .invalidBinary,
        "marker 0x\(String(marker, radix: 16)) is not an object kind of bplist00 (sets, ordered sets and UTF-8 strings are not property list values)",
        at: offset)
    }
  }

  private mutating func enter(_ offset: Int) throws {
    depth += 1
    if depth > maximumDepth {
      throw failure(
        .tooDeep, "containers nest deeper than the limit of \(maximumDepth) levels", at: offset)
    }
  }

  private func grow(_ size: Int, by extra: Int, at offset: Int) throws -> Int {
    let total = size + extra
    guard total <= expansionLimit else {
      throw failure(
        .invalidBinary,
        "shared references expand the container at \(offset) to more than \(expansionLimit) values",
        at: offset)
    }
    return total
  }

  private func reference(at offset: Int) -> Int {
    let value = Self.readUnsigned(bytes, at: offset, width: referenceSize)
    return value > UInt64(Int.max) ? Int.max : Int(value)
  }

  /// The count and the start of the reference list of an array (1 per entry) or dictionary (2).
  private func references(at offset: Int, perEntry: Int = 1) throws -> (Int, Int) {
    let (count, start) = try length(at: offset)
    let (perEntryBytes, overflow1) = count.multipliedReportingOverflow(by: referenceSize * perEntry)
    guard !overflow1 else {
      throw failure(
        .truncatedBinary, "the container declares \(count) entries, more than the file holds",
        at: offset)
    }
    guard count <= objectCount * perEntry || count == 0 else {
      // More distinct entries than objects is possible only through repeats; the size check below
      // still bounds the work by the file's size.
      try require(perEntryBytes, at: start, for: "reference list", object: offset)
      return (count, start)
    }
    try require(perEntryBytes, at: start, for: "reference list", object: offset)
    return (count, start)
  }

  /// The length of a data, string or container object and where its body starts.
  private func length(at offset: Int) throws -> (Int, Int) {
    let low = Int(bytes[offset] & 0x0F)
    if low != 0x0F { return (low, offset + 1) }
    try require(1, at: offset + 1, for: "length", object: offset)
    let marker = bytes[offset + 1]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
      throw failure(
        .invalidBinary, "the length of the object is not an integer of 1 to 8 bytes", at: offset + 1
      )
    }
    let width = 1 << Int(marker & 0x0F)
    try require(width, at: offset + 2, for: "length", object: offset)
    let count = Self.readUnsigned(bytes, at: offset + 2, width: width)
    guard count <= UInt64(offsetTableOffset) else {
      throw failure(
        .truncatedBinary,
        "the object declares a length of \(count), more than the \(bytes.count)-byte file holds",
        at: offset)
    }
    return (Int(count), offset + 2 + width)
  }

  private func integer(at offset: Int, exponent: Int) throws -> PropertyListValue.Content {
    guard exponent <= 4 else {
      throw failure(.invalidBinary, "an integer of \(1 << exponent) bytes (at most 16)", at: offset)
    }
    let width = 1 << exponent
    try require(width, at: offset + 1, for: "integer", object: offset)
    switch width {
    case 1, 2, 4:
      return .integer(Int64(Self.readUnsigned(bytes, at: offset + 1, width: width)))
    case 8:
      return .integer(Int64(bitPattern: Self.readUnsigned(bytes, at: offset + 1, width: 8)))
    default:
      let high = Self.readUnsigned(bytes, at: offset + 1, width: 8)
      let low = Self.readUnsigned(bytes, at: offset + 9, width: 8)
      if high == 0 {
        return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low)
      }
      if high == UInt64.max, Int64(bitPattern: low) < 0 {
        return .integer(Int64(bitPattern: low))
      }
      throw failure(.invalidInteger, "a 128-bit integer outside the 64-bit range", at: offset)
    }
  }
}
