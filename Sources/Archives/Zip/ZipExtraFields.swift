/// The extra fields of a zip header that Folio reads (APPNOTE 4.5, Info-ZIP's extra.fld).
struct ZipExtraFields {
  /// The ZIP64 extended-information field's body (0x0001).
  var zip64: Zip64Body?
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

  /// Parses the fields of one header, read in place.
  ///
  /// - Parameters:
  ///   - raw: The extra-field area.
  ///   - malformed: Makes the error for a field that runs past the area.
  /// - Throws: What `malformed` makes.
  init(raw: UnsafeRawBufferPointer, malformed: (String) -> PackagingError) throws {
    // Read in place, a number at a time: a slice per field retained the buffer the slices
    // share, and most fields are a timestamp read as one number. Only the ZIP64 field's
    // body is copied out, for the sizes the header's sentinels leave to it.
    var zip64Body: Range<Int>?
    var unicodePath: (nameCRC: UInt32, path: [UInt8])?
    var modificationTime: Int64?
    var ownerID: Int64?
    var groupID: Int64?
    // The closure does not throw: a field running past the area ends the loop, its tag kept.
    var overrun: UInt16?
    let end: Int = {
      var cursor = 0
      while cursor + 4 <= raw.count {
        let tag = raw.uint16(at: cursor)
        let length = Int(raw.uint16(at: cursor + 2))
        let body = cursor + 4
        guard body + length <= raw.count else {
          overrun = tag
          return cursor
        }
        switch tag {
        case 0x0001:
          zip64Body = body..<(body + length)
        case 0x7075 where length >= 5 && raw[body] == 1:
          unicodePath = (raw.uint32(at: body + 1), Array(raw[(body + 5)..<(body + length)]))
        case 0x5455 where length >= 5 && raw[body] & 1 != 0:
          modificationTime = Int64(raw.uint32(at: body + 1))
        case 0x5855 where length >= 8:
          modificationTime = Int64(raw.uint32(at: body + 4))
          if length >= 12 {
            ownerID = Int64(raw.uint16(at: body + 8))
            groupID = Int64(raw.uint16(at: body + 10))
          }
        case 0x000D where length >= 12:
          modificationTime = Int64(raw.uint32(at: body + 4))
          ownerID = Int64(raw.uint16(at: body + 8))
          groupID = Int64(raw.uint16(at: body + 10))
        case 0x7855 where length >= 4:
          ownerID = Int64(raw.uint16(at: body))
          groupID = Int64(raw.uint16(at: body + 2))
        case 0x7875 where length >= 3 && raw[body] == 1:
          var at = body + 1
          let fieldEnd = body + length
          func id() -> Int64? {
            guard at < fieldEnd else { return nil }
            let size = Int(raw[at])
            defer { at += 1 + size }
            guard at + 1 + size <= fieldEnd else { return nil }
            switch size {
            case 2: return Int64(raw.uint16(at: at + 1))
            case 4: return Int64(raw.uint32(at: at + 1))
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
      return cursor
    }()
    if let overrun {
      throw malformed("an extra field (0x\(String(overrun, radix: 16))) running past its header")
    }
    zip64 = zip64Body.map { Zip64Body(UnsafeRawBufferPointer(rebasing: raw[$0])) }
    self.unicodePath = unicodePath
    self.modificationTime = modificationTime
    self.ownerID = ownerID
    self.groupID = groupID
    paddingLength = raw.count - end
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
    var cursor = 0
    func next(_ width: Int, _ what: String) throws -> UInt64 {
      guard let zip64, cursor + width <= zip64.count else {
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

extension ZipExtraFields {
  /// A ZIP64 field's body, its first 32 bytes kept by value: the four values a header can
  /// leave to it take 28, and a value copies no buffer (a slice of the header retained one
  /// for every copy of the fields).
  struct Zip64Body {
    /// The body's length in its header.
    let count: Int
    private var bytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Keeps a body's first 32 bytes.
    ///
    /// - Parameter raw: The body.
    init(_ raw: UnsafeRawBufferPointer) {
      count = raw.count
      withUnsafeMutableBytes(of: &bytes) {
        $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw.prefix(32)))
      }
    }

    /// The little-endian value at `offset`, which must end within ``count`` and 32 bytes.
    func uint64(at offset: Int) -> UInt64 {
      precondition(offset + 8 <= min(count, 32), "a ZIP64 value past the field")
      return withUnsafeBytes(of: bytes) { $0.uint64(at: offset) }
    }

    /// The little-endian value at `offset`, which must end within ``count`` and 32 bytes.
    func uint32(at offset: Int) -> UInt32 {
      precondition(offset + 4 <= min(count, 32), "a ZIP64 value past the field")
      return withUnsafeBytes(of: bytes) { $0.uint32(at: offset) }
    }
  }
}
