/// macOS's AppleDouble files (`._name`): a file's Finder info, resource fork and extended
/// attributes beside it, as Archive Utility, Finder's Compress and `ditto -c -k
/// --sequesterRsrc` put them in zips under `__MACOSX/`.
///
/// The layout is Apple's AppleSingle/AppleDouble format (version 2, RFC 1740): a
/// 26-byte header (magic `0x00051607`, version `0x00020000`, 16 filler bytes, an
/// entry count), 12-byte entry descriptors (id, offset, length), big-endian. macOS
/// writes two entries: Finder info (id 9) and the resource fork (id 2). Its Finder
/// info entry runs past the 32 bytes of Finder info: after two bytes of padding
/// comes the extended-attribute block, `ATTR` (xnu's `attr_header`: magic, debug tag,
/// total size, data start, data length, 12 reserved bytes, flags, attribute count),
/// then one record per attribute (value offset, length, flags, name length with its
/// NUL, the UTF-8 name, padded to 4 bytes), then the values.
///
/// Attributes come out under their macOS names (`com.apple.metadata:_kMDItemUserTags`);
/// the Finder info as `com.apple.FinderInfo` when it is not all zeros, and the
/// resource fork as `com.apple.ResourceFork`, as macOS itself names them.
struct AppleDouble: Equatable {
  /// The attributes under their macOS names, in the order the file holds them.
  var attributes: [(name: String, value: [UInt8])]

  static func == (left: AppleDouble, right: AppleDouble) -> Bool {
    left.attributes.elementsEqual(right.attributes) { $0.name == $1.name && $0.value == $1.value }
  }

  /// A parse failure, saying what is wrong.
  struct Malformed: Error {
    var reason: String
  }

  static let magic: UInt32 = 0x0005_1607
  static let version: UInt32 = 0x0002_0000
  static let finderInfoName = "com.apple.FinderInfo"
  static let resourceForkName = "com.apple.ResourceFork"
  /// The largest AppleDouble file read: a resource fork larger than Linux's 64 KiB
  /// attribute limit could not be kept anyway.
  static let maximumSize = 1 << 24
  /// The most entry descriptors read (macOS writes two).
  static let maximumEntryCount = 64
  /// The longest name an attribute record holds (xnu's limit, NUL not counted).
  static let maximumNameLength = 127

  private static let headerSize = 26
  private static let finderInfoSize = 32
  private static let attributeHeaderSize = 36

  init(attributes: [(name: String, value: [UInt8])]) {
    self.attributes = attributes
  }

  /// Reads an AppleDouble file, within its own bounds.
  ///
  /// - Parameter bytes: The file's bytes.
  /// - Throws: ``Malformed`` for a file that is not AppleDouble or whose lengths run
  ///   past its end.
  init(parsing bytes: [UInt8]) throws(Malformed) {
    guard bytes.count <= Self.maximumSize else {
      throw Malformed(reason: "it is larger than \(Self.maximumSize) bytes")
    }
    guard bytes.count >= Self.headerSize, Self.read32(bytes, 0) == Self.magic else {
      throw Malformed(reason: "it does not start with the AppleDouble magic number")
    }
    guard Self.read32(bytes, 4) == Self.version else {
      throw Malformed(reason: "it is not AppleDouble version 2")
    }
    let count = Int(Self.read16(bytes, 24))
    guard count <= Self.maximumEntryCount, Self.headerSize + 12 * count <= bytes.count else {
      throw Malformed(reason: "its \(count) entry descriptors do not fit in it")
    }
    var attributes: [(name: String, value: [UInt8])] = []
    var resourceFork: [UInt8]?
    for index in 0..<count {
      let at = Self.headerSize + 12 * index
      let id = Self.read32(bytes, at)
      let offset = Int(Self.read32(bytes, at + 4))
      let length = Int(Self.read32(bytes, at + 8))
      guard offset <= bytes.count, length <= bytes.count - offset else {
        throw Malformed(
          reason: "entry \(id) runs past the end (offset \(offset), length \(length))")
      }
      switch id {
      case 9:
        guard length >= Self.finderInfoSize else {
          throw Malformed(reason: "its Finder info is \(length) bytes, not 32")
        }
        let info = Array(bytes[offset..<offset + Self.finderInfoSize])
        if info.contains(where: { $0 != 0 }) { attributes.append((Self.finderInfoName, info)) }
        let block = offset + Self.finderInfoSize + 2
        if length >= Self.finderInfoSize + 2 + Self.attributeHeaderSize,
          Array(bytes[block..<block + 4]) == Array("ATTR".utf8)
        {
          attributes += try Self.attributeBlock(bytes, at: block, end: offset + length)
        }
      case 2:
        // macOS writes an empty resource map ("This resource fork intentionally left
        // blank") into every `._` file: a fork without resource data is no attribute.
        if length >= 16, Self.read32(bytes, offset + 8) != 0 {
          resourceFork = Array(bytes[offset..<offset + length])
        } else if length > 0 && length < 16 {
          resourceFork = Array(bytes[offset..<offset + length])
        }
      default:
        continue
      }
    }
    if let resourceFork { attributes.append((Self.resourceForkName, resourceFork)) }
    self.attributes = attributes
  }

  /// The attribute records of an `ATTR` block; offsets are from the file's start.
  private static func attributeBlock(_ bytes: [UInt8], at start: Int, end: Int) throws(Malformed)
    -> [(name: String, value: [UInt8])]
  {
    let count = Int(read16(bytes, start + 34))
    guard count <= ExtendedAttribute.maximumCount else {
      throw Malformed(
        reason: "it holds \(count) attributes, more than \(ExtendedAttribute.maximumCount)")
    }
    var attributes: [(name: String, value: [UInt8])] = []
    var at = start + attributeHeaderSize
    for _ in 0..<count {
      guard at + 11 <= end else {
        throw Malformed(reason: "its attribute records run past their block")
      }
      let offset = Int(read32(bytes, at))
      let length = Int(read32(bytes, at + 4))
      let nameLength = Int(bytes[at + 10])
      guard nameLength >= 1, at + 11 + nameLength <= end else {
        throw Malformed(reason: "an attribute name runs past its block")
      }
      var nameBytes = bytes[at + 11..<at + 11 + nameLength]
      if nameBytes.last == 0 { nameBytes = nameBytes.dropLast() }
      guard !nameBytes.isEmpty, !nameBytes.contains(0),
        let name = String(validating: nameBytes, as: UTF8.self)
      else { throw Malformed(reason: "an attribute name is empty or not UTF-8") }
      guard offset <= bytes.count, length <= bytes.count - offset else {
        throw Malformed(reason: "the value of '\(name)' runs past the end")
      }
      attributes.append((name, Array(bytes[offset..<offset + length])))
      at = (at + 11 + nameLength + 3) & ~3
    }
    return attributes
  }

  /// The file as macOS writes it: Finder info (with the attributes' `ATTR` block) and the
  /// resource fork.
  ///
  /// Attributes named ``finderInfoName`` (32 bytes) and ``resourceForkName`` fill those
  /// entries; every other one goes in the `ATTR` block, names shorter than 128 bytes.
  var bytes: [UInt8] {
    var finderInfo = [UInt8](repeating: 0, count: Self.finderInfoSize)
    var resourceFork: [UInt8] = []
    var records: [(name: [UInt8], value: [UInt8])] = []
    for attribute in attributes {
      switch attribute.name {
      case Self.finderInfoName where attribute.value.count == Self.finderInfoSize:
        finderInfo = attribute.value
      case Self.resourceForkName:
        resourceFork = attribute.value
      default:
        records.append((Array(attribute.name.utf8), attribute.value))
      }
    }
    let block = Self.headerSize + 24 + Self.finderInfoSize + 2
    var recordsEnd = block + Self.attributeHeaderSize
    for record in records { recordsEnd = (recordsEnd + 11 + record.name.count + 1 + 3) & ~3 }
    let dataLength = records.reduce(0) { $0 + $1.value.count }
    let totalSize = recordsEnd + dataLength
    var out: [UInt8] = []
    out.reserveCapacity(totalSize + resourceFork.count)
    Self.append32(Self.magic, to: &out)
    Self.append32(Self.version, to: &out)
    out += Array("Mac OS X        ".utf8)
    Self.append16(2, to: &out)
    let finderOffset = Self.headerSize + 24
    for (id, offset, length) in [
      (UInt32(9), finderOffset, totalSize - finderOffset), (2, totalSize, resourceFork.count),
    ] {
      Self.append32(id, to: &out)
      Self.append32(UInt32(offset), to: &out)
      Self.append32(UInt32(length), to: &out)
    }
    out += finderInfo
    out += [0, 0]
    out += Array("ATTR".utf8)
    Self.append32(0, to: &out)  // debug tag
    Self.append32(UInt32(totalSize), to: &out)
    Self.append32(UInt32(recordsEnd), to: &out)
    Self.append32(UInt32(dataLength), to: &out)
    out += [UInt8](repeating: 0, count: 12)
    Self.append16(0, to: &out)  // flags
    Self.append16(UInt16(records.count), to: &out)
    var valueOffset = recordsEnd
    for record in records {
      Self.append32(UInt32(valueOffset), to: &out)
      Self.append32(UInt32(record.value.count), to: &out)
      Self.append16(0, to: &out)
      out.append(UInt8(record.name.count + 1))
      out += record.name
      out.append(0)
      while out.count % 4 != 0 { out.append(0) }
      valueOffset += record.value.count
    }
    for record in records { out += record.value }
    out += resourceFork
    return out
  }

  /// An AppleDouble entry's name for a file's: `DIR/._NAME` for `DIR/NAME`.
  static func name(for path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "._" + path }
    return path[...slash] + "._" + path[path.index(after: slash)...]
  }

  private static func read16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])
  }

  private static func read32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(read16(bytes, at)) << 16 | UInt32(read16(bytes, at + 2))
  }

  private static func append16(_ value: UInt16, to bytes: inout [UInt8]) {
    bytes.append(UInt8(value >> 8))
    bytes.append(UInt8(value & 0xFF))
  }

  private static func append32(_ value: UInt32, to bytes: inout [UInt8]) {
    append16(UInt16(value >> 16), to: &bytes)
    append16(UInt16(value & 0xFFFF), to: &bytes)
  }
}
