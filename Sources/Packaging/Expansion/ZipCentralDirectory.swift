/// A zip archive's central directory, read in pure Swift with every offset
/// and length checked against the file's bounds.
///
/// libarchive trusts whichever header it reads; this reader is the second
/// opinion the expander asks before writing anything: it finds the end
/// record (and the ZIP64 one), walks the central directory, and reads each
/// entry's local header so they can be compared.
struct ZipCentralDirectory {
  /// One central-directory record, with its local header.
  struct Record {
    /// The name as stored in the central directory (raw bytes).
    var rawName: [UInt8]
    /// The Info-ZIP Unicode path (extra field 0x7075), which libarchive prefers.
    var unicodeName: [UInt8]?
    /// The name libarchive will report: the Unicode path when present.
    var effectiveName: EntryName { EntryName(bytes: unicodeName ?? rawName) }
    /// The general-purpose flags.
    var flags: UInt16
    /// The compression method (0 stored, 8 deflate, …).
    var method: UInt16
    /// The CRC-32 of the uncompressed data.
    var crc32: UInt32
    /// The compressed size.
    var compressedSize: Int64
    /// The uncompressed size.
    var uncompressedSize: Int64
    /// The host system of "version made by" (3 Unix, 19 macOS, 0 DOS, …).
    var hostSystem: UInt8
    /// The external attributes.
    var externalAttributes: UInt32
    /// Where the local header starts, after any prefix (self-extractor stub).
    var localHeaderOffset: Int64
    /// Where the entry's data starts (after the local header).
    var dataOffset: Int64
    /// The local header's name.
    var localName: [UInt8]
    /// The local header's Unicode path, if any.
    var localUnicodeName: [UInt8]?
    /// The local header's flags.
    var localFlags: UInt16
    /// The local header's method.
    var localMethod: UInt16
    /// The local header's CRC-32 and sizes (after ZIP64), meaningful unless flag bit 3 is set.
    var localCRC32: UInt32
    var localCompressedSize: Int64
    var localUncompressedSize: Int64

    /// Whether the entry is encrypted (flag bit 0).
    var isEncrypted: Bool { flags & 1 != 0 }

    /// What the entry creates, from the Unix mode when the host stores one.
    var kind: ArchiveEntryInfo.Kind {
      let name = unicodeName ?? rawName
      if hostSystem == 3 || hostSystem == 19, let mode = unixMode, mode & 0o170000 != 0 {
        switch mode & 0o170000 {
        case 0o040000: return .directory
        case 0o120000: return .symbolicLink
        case 0o020000: return .characterDevice
        case 0o060000: return .blockDevice
        case 0o010000: return .fifo
        case 0o140000: return .socket
        default: break
        }
      }
      if name.last == UInt8(ascii: "/") { return .directory }
      if externalAttributes & 0x10 != 0 { return .directory }  // MS-DOS directory attribute
      return .file
    }

    /// The Unix mode in the high half of the external attributes, if any.
    var unixMode: UInt32? {
      let mode = externalAttributes >> 16
      return mode == 0 ? nil : mode
    }
  }

  /// Where the central directory starts (the end of entry data).
  var centralDirectoryOffset: Int64
  /// How many records it holds.
  var recordCount: Int

  private static let endSignature: UInt32 = 0x0605_4B50
  private static let zip64LocatorSignature: UInt32 = 0x0706_4B50
  private static let zip64EndSignature: UInt32 = 0x0606_4B50
  private static let centralSignature: UInt32 = 0x0201_4B50
  private static let localSignature: UInt32 = 0x0403_4B50
  private static let endRecordLength = 22
  private static let maxCommentLength = 0xFFFF

  /// Whether a file starts like a zip archive (a local header or an empty archive's end record).
  ///
  /// - Parameter file: The file.
  /// - Returns: `true` for `PK\3\4` and `PK\5\6`.
  static func looksLikeZip(_ file: RandomAccessFile) throws -> Bool {
    guard let head = try file.bytes(at: 0, count: 4) else { return false }
    let signature = UInt32(le: head, at: head.startIndex)
    return signature == localSignature || signature == endSignature
  }

  /// Reads the central directory and every local header, one record at a time.
  ///
  /// Records are handed to `body` in central-directory order and not kept, so
  /// memory stays flat in the number of entries.
  ///
  /// - Parameters:
  ///   - file: The archive.
  ///   - name: The archive's path, for messages.
  ///   - maxEntries: Refuse before reading records when the end record declares more.
  ///   - body: Called with each record and its index.
  /// - Returns: The directory's position and size.
  /// - Throws: ``PackagingError`` (`malformed-zip`, `too-many-entries`) naming what is
  ///   wrong, or what `body` throws.
  @discardableResult
  static func read(
    _ file: RandomAccessFile, name: String, maxEntries: Int,
    _ body: (Int, Record) throws -> Void
  ) throws -> Self {
    func malformed(_ text: String) -> PackagingError {
      PackagingError(.malformedZip, "'\(name)': \(text)")
    }
    // 1. The end record: the last signature whose comment reaches the end of the file.
    let searchLength = Int(min(file.size, Int64(endRecordLength + maxCommentLength)))
    guard searchLength >= endRecordLength,
      let tail = try file.bytes(at: file.size - Int64(searchLength), count: searchLength)
    else { throw malformed("too short for a zip end record") }
    let tailStart = file.size - Int64(searchLength)
    var endIndex: Int?
    var index = tail.endIndex - endRecordLength
    while index >= tail.startIndex {
      if UInt32(le: tail, at: index) == endSignature {
        let commentLength = Int(UInt16(le: tail, at: index + 20))
        if index + endRecordLength + commentLength <= tail.endIndex {
          endIndex = index
          break
        }
      }
      index -= 1
    }
    guard let endIndex else { throw malformed("no end-of-central-directory record") }
    let endOffset = tailStart + Int64(endIndex - tail.startIndex)
    var diskNumber = UInt32(UInt16(le: tail, at: endIndex + 4))
    var directoryDisk = UInt32(UInt16(le: tail, at: endIndex + 6))
    var entriesOnDisk = UInt64(UInt16(le: tail, at: endIndex + 8))
    var totalEntries = UInt64(UInt16(le: tail, at: endIndex + 10))
    var directorySize = UInt64(UInt32(le: tail, at: endIndex + 12))
    var directoryOffset = UInt64(UInt32(le: tail, at: endIndex + 16))
    var directoryEnd = endOffset

    // 2. ZIP64: a locator right before the end record points at the ZIP64 end record.
    if endOffset >= 20, let locator = try file.bytes(at: endOffset - 20, count: 20),
      UInt32(le: locator, at: locator.startIndex) == zip64LocatorSignature
    {
      let zip64Offset = Int64(bitPattern: UInt64(le: locator, at: locator.startIndex + 8))
      guard zip64Offset >= 0, zip64Offset <= endOffset - 20 - 56,
        let record = try file.bytes(at: zip64Offset, count: 56),
        UInt32(le: record, at: record.startIndex) == zip64EndSignature
      else { throw malformed("the ZIP64 end record is missing or out of bounds") }
      let base = record.startIndex
      diskNumber = UInt32(le: record, at: base + 16)
      directoryDisk = UInt32(le: record, at: base + 20)
      entriesOnDisk = UInt64(le: record, at: base + 24)
      totalEntries = UInt64(le: record, at: base + 32)
      directorySize = UInt64(le: record, at: base + 40)
      directoryOffset = UInt64(le: record, at: base + 48)
      directoryEnd = zip64Offset
    }
    guard diskNumber == 0, directoryDisk == 0, entriesOnDisk == totalEntries else {
      throw malformed("multi-volume archives are not supported")
    }
    guard totalEntries <= UInt64(maxEntries) else {
      throw PackagingError(
        .tooManyEntries,
        "'\(name)' declares \(totalEntries) entries, more than the limit of \(maxEntries)")
    }
    guard directorySize <= UInt64(directoryEnd), directoryOffset <= UInt64(directoryEnd)
    else { throw malformed("the central directory lies outside the file") }
    // A self-extractor stub (or `zip -A`) shifts every offset by the prefix's length.
    let directoryStart = directoryEnd - Int64(directorySize)
    let prefix = directoryStart - Int64(directoryOffset)
    guard prefix >= 0 else { throw malformed("the central directory lies outside the file") }
    // Each record is at least 46 bytes: a count that cannot fit is a lie.
    guard totalEntries <= directorySize / 46 + 1 else {
      throw malformed(
        "\(totalEntries) entries cannot fit in a \(directorySize)-byte central directory")
    }

    // 3. The records.
    var offset = directoryStart
    for number in 0..<totalEntries {
      guard offset + 46 <= directoryEnd, let fixed = try file.bytes(at: offset, count: 46),
        UInt32(le: fixed, at: fixed.startIndex) == centralSignature
      else { throw malformed("central-directory record \(number + 1) is missing or damaged") }
      let base = fixed.startIndex
      let hostSystem = fixed[base + 5]
      let flags = UInt16(le: fixed, at: base + 8)
      let method = UInt16(le: fixed, at: base + 10)
      let crc = UInt32(le: fixed, at: base + 16)
      var compressed = UInt64(UInt32(le: fixed, at: base + 20))
      var uncompressed = UInt64(UInt32(le: fixed, at: base + 24))
      let nameLength = Int(UInt16(le: fixed, at: base + 28))
      let extraLength = Int(UInt16(le: fixed, at: base + 30))
      let commentLength = Int(UInt16(le: fixed, at: base + 32))
      let startDisk = UInt16(le: fixed, at: base + 34)
      let external = UInt32(le: fixed, at: base + 38)
      var localOffset = UInt64(UInt32(le: fixed, at: base + 42))
      let variableLength = nameLength + extraLength + commentLength
      guard offset + 46 + Int64(variableLength) <= directoryEnd,
        let variable = try file.bytes(at: offset + 46, count: nameLength + extraLength)
      else { throw malformed("central-directory record \(number + 1) runs past the directory") }
      let rawName = Array(variable.prefix(nameLength))
      let extra = variable.dropFirst(nameLength)
      let entry = EntryName(bytes: rawName)

      let fields = try ExtraFields(extra, entry: entry, archive: name)
      if let zip64 = fields.zip64 {
        var cursor = zip64.startIndex
        func next() throws -> UInt64 {
          guard cursor + 8 <= zip64.endIndex else {
            throw malformed("entry \(entry.display) has a short ZIP64 extra field")
          }
          defer { cursor += 8 }
          return UInt64(le: zip64, at: cursor)
        }
        if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
        if compressed == 0xFFFF_FFFF { compressed = try next() }
        if localOffset == 0xFFFF_FFFF { localOffset = try next() }
      }
      guard startDisk == 0 || startDisk == 0xFFFF else {
        throw malformed("entry \(entry.display) starts on another volume")
      }
      guard compressed <= UInt64(Int64.max), uncompressed <= UInt64(Int64.max),
        localOffset <= UInt64(directoryStart)
      else { throw malformed("entry \(entry.display) has sizes or an offset out of range") }

      // 4. The local header, which libarchive reads the name and data from.
      let localStart = Int64(localOffset) + prefix
      guard localStart + 30 <= directoryStart,
        let local = try file.bytes(at: localStart, count: 30),
        UInt32(le: local, at: local.startIndex) == localSignature
      else { throw malformed("entry \(entry.display) has no local header at its offset") }
      let localBase = local.startIndex
      let localFlags = UInt16(le: local, at: localBase + 6)
      let localMethod = UInt16(le: local, at: localBase + 8)
      let localCRC = UInt32(le: local, at: localBase + 14)
      var localCompressed = UInt64(UInt32(le: local, at: localBase + 18))
      var localUncompressed = UInt64(UInt32(le: local, at: localBase + 22))
      let localNameLength = Int(UInt16(le: local, at: localBase + 26))
      let localExtraLength = Int(UInt16(le: local, at: localBase + 28))
      let dataOffset = localStart + 30 + Int64(localNameLength + localExtraLength)
      guard dataOffset <= directoryStart,
        let localVariable = try file.bytes(
          at: localStart + 30, count: localNameLength + localExtraLength)
      else { throw malformed("entry \(entry.display) has a local header past the data area") }
      let localName = Array(localVariable.prefix(localNameLength))
      let localFields = try ExtraFields(
        localVariable.dropFirst(localNameLength), entry: entry, archive: name)
      if let zip64 = localFields.zip64, zip64.count >= 16 {
        if localUncompressed == 0xFFFF_FFFF {
          localUncompressed = UInt64(le: zip64, at: zip64.startIndex)
        }
        if localCompressed == 0xFFFF_FFFF {
          localCompressed = UInt64(le: zip64, at: zip64.startIndex + 8)
        }
      }
      guard Int64(compressed) <= directoryStart - dataOffset else {
        throw malformed("entry \(entry.display) has data running past the data area")
      }

      try body(
        Int(number),
        Record(
          rawName: rawName, unicodeName: fields.unicodePath, flags: flags, method: method,
          crc32: crc, compressedSize: Int64(compressed), uncompressedSize: Int64(uncompressed),
          hostSystem: hostSystem, externalAttributes: external, localHeaderOffset: localStart,
          dataOffset: dataOffset, localName: localName, localUnicodeName: localFields.unicodePath,
          localFlags: localFlags, localMethod: localMethod, localCRC32: localCRC,
          localCompressedSize: Int64(clamping: localCompressed),
          localUncompressedSize: Int64(clamping: localUncompressed)))
      offset += 46 + Int64(variableLength)
    }
    return ZipCentralDirectory(
      centralDirectoryOffset: directoryStart, recordCount: Int(totalEntries))
  }
}

/// The extra fields of a zip header that matter to the pre-check.
private struct ExtraFields {
  /// The ZIP64 extended-information field's body (0x0001).
  var zip64: ArraySlice<UInt8>?
  /// The Info-ZIP Unicode path (0x7075), without its version and CRC.
  var unicodePath: [UInt8]?

  init(_ bytes: ArraySlice<UInt8>, entry: EntryName, archive: String) throws {
    var cursor = bytes.startIndex
    while cursor + 4 <= bytes.endIndex {
      let tag = UInt16(le: bytes, at: cursor)
      let length = Int(UInt16(le: bytes, at: cursor + 2))
      let body = cursor + 4
      guard body + length <= bytes.endIndex else {
        // libarchive tolerates trailing padding; a declared field running past is damage.
        throw PackagingError(
          .malformedZip,
          "'\(archive)': entry \(entry.display) has an extra field running past its header")
      }
      switch tag {
      case 0x0001: zip64 = bytes[body..<(body + length)]
      case 0x7075 where length >= 5: unicodePath = Array(bytes[(body + 5)..<(body + length)])
      default: break
      }
      cursor = body + length
    }
  }
}

extension UInt16 {
  init(le bytes: ArraySlice<UInt8>, at index: Int) {
    self = UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
  }
}

extension UInt32 {
  init(le bytes: ArraySlice<UInt8>, at index: Int) {
    self = UInt32(UInt16(le: bytes, at: index)) | UInt32(UInt16(le: bytes, at: index + 2)) << 16
  }
}

extension UInt64 {
  init(le bytes: ArraySlice<UInt8>, at index: Int) {
    self = UInt64(UInt32(le: bytes, at: index)) | UInt64(UInt32(le: bytes, at: index + 4)) << 32
  }
}
