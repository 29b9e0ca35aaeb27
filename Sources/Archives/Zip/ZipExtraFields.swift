/// The extra fields of a zip header that Folio reads (APPNOTE 4.5, Info-ZIP's extra.fld).
struct ZipExtraFields {
  /// The ZIP64 extended-information field's body (0x0001).
  var zip64: ArraySlice<UInt8>?
  /// The Info-ZIP Unicode path (0x7075): the stored name's CRC-32 and the UTF-8 path.
  var unicodePath: (nameCRC: UInt32, path: [UInt8])?
  /// The modification time of the last time field (0x5455, 0x5855, 0x000D), if any.
  var modificationTime: Int64?
  /// Owner and group from the Unix fields (0x7875, 0x7855, 0x5855, 0x000D).
  var ownerID: Int64?
  var groupID: Int64?
  /// Bytes after the last field too few to be one (1 to 3): padding, as alignment tools
  /// leave it, which unzip, Python and libarchive skip.
  var paddingLength = 0

  /// Parses the fields of one header.
  ///
  /// - Parameters:
  ///   - bytes: The extra-field area.
  ///   - malformed: Makes the error for a field that runs past the area.
  /// - Throws: What `malformed` makes.
  init(_ bytes: ArraySlice<UInt8>, malformed: (String) -> PackagingError) throws {
    var cursor = bytes.startIndex
    while cursor + 4 <= bytes.endIndex {
      let tag = bytes.uint16(at: cursor)
      let length = Int(bytes.uint16(at: cursor + 2))
      let body = cursor + 4
      guard body + length <= bytes.endIndex else {
        throw malformed("an extra field (0x\(String(tag, radix: 16))) running past its header")
      }
      let field = bytes[body..<(body + length)]
      switch tag {
      case 0x0001:
        zip64 = field
      case 0x7075 where length >= 5 && field[field.startIndex] == 1:
        unicodePath = (field.uint32(at: field.startIndex + 1), Array(field.dropFirst(5)))
      case 0x5455 where length >= 5 && field[field.startIndex] & 1 != 0:
        modificationTime = Int64(field.uint32(at: field.startIndex + 1))
      case 0x5855 where length >= 8:
        modificationTime = Int64(field.uint32(at: field.startIndex + 4))
        if length >= 12 {
          ownerID = Int64(field.uint16(at: field.startIndex + 8))
          groupID = Int64(field.uint16(at: field.startIndex + 10))
        }
      case 0x000D where length >= 12:
        modificationTime = Int64(field.uint32(at: field.startIndex + 4))
        ownerID = Int64(field.uint16(at: field.startIndex + 8))
        groupID = Int64(field.uint16(at: field.startIndex + 10))
      case 0x7855 where length >= 4:
        ownerID = Int64(field.uint16(at: field.startIndex))
        groupID = Int64(field.uint16(at: field.startIndex + 2))
      case 0x7875 where length >= 3 && field[field.startIndex] == 1:
        var at = field.startIndex + 1
        func id() -> Int64? {
          guard at < field.endIndex else { return nil }
          let size = Int(field[at])
          defer { at += 1 + size }
          guard at + 1 + size <= field.endIndex else { return nil }
          switch size {
          case 2: return Int64(field.uint16(at: at + 1))
          case 4: return Int64(field.uint32(at: at + 1))
          default: return nil
          }
        }
        ownerID = id()
        groupID = id()
      default:
        break
      }
      cursor = body + length
    }
    paddingLength = bytes.endIndex - cursor
  }

  /// Reads the ZIP64 field's values for the header fields that hold the 0xFFFFFFFF
  /// (or 0xFFFF) sentinel, in APPNOTE's order: size, compressed size, offset, disk.
  ///
  /// - Parameters:
  ///   - values: The 32-bit values, replaced in place where they are sentinels.
  ///   - malformed: Makes the error for a missing value.
  /// - Throws: What `malformed` makes, when a sentinel has no ZIP64 value.
  func resolveZip64(
    size: inout UInt64, compressedSize: inout UInt64, offset: inout UInt64?,
    disk: inout UInt32?, malformed: (String) -> PackagingError
  ) throws {
    var cursor = zip64?.startIndex ?? 0
    func next(_ width: Int, _ what: String) throws -> UInt64 {
      guard let zip64, cursor + width <= zip64.endIndex else {
        throw malformed("no ZIP64 value for its \(what)")
      }
      defer { cursor += width }
      return width == 8 ? zip64.uint64(at: cursor) : UInt64(zip64.uint32(at: cursor))
    }
    if size == 0xFFFF_FFFF { size = try next(8, "size") }
    if compressedSize == 0xFFFF_FFFF { compressedSize = try next(8, "compressed size") }
    if offset == 0xFFFF_FFFF { offset = try next(8, "local header offset") }
    if disk == 0xFFFF { disk = UInt32(try next(4, "disk number")) }
  }
}
