import FolioSystem
import Glibc

/// One zip entry as Folio writes it: what its local header and its
/// central-directory record say.
///
/// The layout follows PKWARE's APPNOTE 6.3: local headers carry the real
/// CRC-32 and sizes (never a data descriptor); ZIP64 extra fields appear
/// exactly where a size or offset does not fit in 32 bits (in a local header,
/// when the entry's data might not: see ``localUsesZip64``); names are UTF-8
/// (flag bit 11 when not ASCII); the Unix mode, file type included, is the high
/// half of the external attributes; times go in an extended-timestamp field
/// (UTC seconds) and in the MS-DOS date and time, computed in UTC too, so an
/// archive's bytes do not depend on the time zone it was written in.
struct ZipEntryRecord {
  /// How the entry's data is stored.
  enum Method: UInt16 {
    case stored = 0
    case deflated = 8
  }

  /// The name (stored as its UTF-8); a folder's ends in `/`.
  let name: String
  var method: Method
  var crc32: UInt32 = 0
  var compressedSize: UInt64 = 0
  var size: UInt64 = 0
  /// `st_mode`: the file type bits and the permission bits.
  var mode: UInt32
  /// Seconds since 1970, UTC.
  let modificationTime: Int64
  /// ``modificationTime`` as the MS-DOS fields both headers hold, computed once.
  private let dosTime: (time: UInt16, date: UInt16)
  /// The general-purpose flags both headers hold: UTF-8 for a name that is not ASCII.
  private let flags: UInt16
  /// Where the local header starts.
  var localHeaderOffset: UInt64 = 0
  /// Whether the local header carries the sizes in a ZIP64 field: decided
  /// before the data is written, from the largest size the data could take.
  var localUsesZip64 = false

  /// The marker for a 32-bit field whose value is in the ZIP64 field.
  static let overflow32: UInt64 = 0xFFFF_FFFF

  static let localHeaderSignature: UInt32 = 0x0403_4B50
  static let centralHeaderSignature: UInt32 = 0x0201_4B50
  /// Version made by: Unix (3), APPNOTE 6.3.
  static let versionMadeBy: UInt16 = 3 << 8 | 63
  static let utf8Flag: UInt16 = 1 << 11
  static let extendedTimestampTag: UInt16 = 0x5455
  static let zip64Tag: UInt16 = 0x0001
  /// The fixed part of a local header, before the name and extra fields.
  static let localHeaderFixedSize = 30
  /// Where the CRC-32 sits in a local header.
  static let localCRCOffset = 14

  /// Creates a record with no data yet (CRC-32 and sizes 0).
  ///
  /// - Parameters:
  ///   - name: The name; a folder's ends in `/`.
  ///   - method: How the data is stored.
  ///   - mode: `st_mode`: the file type bits and the permission bits.
  ///   - modificationTime: Seconds since 1970, UTC.
  init(name: String, method: Method, mode: UInt32, modificationTime: Int64) {
    self.name = name
    self.method = method
    self.mode = mode
    self.modificationTime = modificationTime
    dosTime = Self.dosDateTime(modificationTime)
    let isASCII =
      name.utf8.withContiguousStorageIfAvailable { $0.isASCII }
      ?? name.utf8.allSatisfy { $0 < 0x80 }
    flags = isASCII ? 0 : Self.utf8Flag
  }

  private var isDirectory: Bool { mode & 0o170000 == 0o040000 }

  private var centralSizesUseZip64: Bool {
    localUsesZip64 || size >= Self.overflow32 || compressedSize >= Self.overflow32
  }

  private func versionNeeded(zip64: Bool) -> UInt16 {
    if zip64 { return 45 }
    return method == .deflated || isDirectory ? 20 : 10
  }

  /// The local header: signature, fields, name, extended timestamp, ZIP64 sizes if chosen.
  var localHeader: [UInt8] { withLocalHeader { Array($0) } }

  /// Hands the local header to `body`, built without an array (one per entry cost more
  /// than the fields).
  ///
  /// - Parameter body: Given the header's bytes, valid only during the call.
  /// - Returns: What `body` returns.
  func withLocalHeader<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    let extraLength = (hasExtendedTimestamp ? 9 : 0) + (localUsesZip64 ? 20 : 0)
    let (time, date) = dosTime
    return try LittleEndianBytes.building(
      capacity: Self.localHeaderFixedSize + name.utf8.count + extraLength, from: self, then: body
    ) { bytes, record in
      bytes.append(Self.localHeaderSignature)
      bytes.append(record.versionNeeded(zip64: record.localUsesZip64))
      bytes.append(record.flags)
      bytes.append(record.method.rawValue)
      bytes.append(time)
      bytes.append(date)
      bytes.append(record.crc32)
      bytes.append(record.localUsesZip64 ? UInt32(Self.overflow32) : UInt32(record.compressedSize))
      bytes.append(record.localUsesZip64 ? UInt32(Self.overflow32) : UInt32(record.size))
      bytes.append(UInt16(record.name.utf8.count))
      bytes.append(UInt16(extraLength))
      bytes.append(utf8Of: record.name)
      record.appendExtendedTimestamp(to: &bytes)
      if record.localUsesZip64 {
        bytes.append(Self.zip64Tag)
        bytes.append(UInt16(16))
        bytes.append(record.size)
        bytes.append(record.compressedSize)
      }
    }
  }

  /// The central-directory record.
  var centralHeader: [UInt8] { withCentralHeader { Array($0) } }

  /// Hands the central-directory record to `body`, built without an array.
  ///
  /// - Parameter body: Given the record's bytes, valid only during the call.
  /// - Returns: What `body` returns.
  func withCentralHeader<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    let sizesZip64 = centralSizesUseZip64
    let offsetZip64 = localHeaderOffset >= Self.overflow32
    let zip64Length = (sizesZip64 ? 16 : 0) + (offsetZip64 ? 8 : 0)
    let extraLength = (hasExtendedTimestamp ? 9 : 0) + (zip64Length > 0 ? 4 + zip64Length : 0)
    let (time, date) = dosTime
    return try LittleEndianBytes.building(
      capacity: 46 + name.utf8.count + extraLength, from: self, then: body
    ) { bytes, record in
      bytes.append(Self.centralHeaderSignature)
      bytes.append(Self.versionMadeBy)
      bytes.append(record.versionNeeded(zip64: sizesZip64 || offsetZip64))
      bytes.append(record.flags)
      bytes.append(record.method.rawValue)
      bytes.append(time)
      bytes.append(date)
      bytes.append(record.crc32)
      bytes.append(sizesZip64 ? UInt32(Self.overflow32) : UInt32(record.compressedSize))
      bytes.append(sizesZip64 ? UInt32(Self.overflow32) : UInt32(record.size))
      bytes.append(UInt16(record.name.utf8.count))
      bytes.append(UInt16(extraLength))
      bytes.append(UInt16(0))  // comment length
      bytes.append(UInt16(0))  // disk number
      bytes.append(UInt16(0))  // internal attributes
      // The mode, with the MS-DOS folder bit.
      bytes.append(record.mode << 16 | (record.isDirectory ? 0x10 : 0))
      bytes.append(offsetZip64 ? UInt32(Self.overflow32) : UInt32(record.localHeaderOffset))
      bytes.append(utf8Of: record.name)
      record.appendExtendedTimestamp(to: &bytes)
      if zip64Length > 0 {
        bytes.append(Self.zip64Tag)
        bytes.append(UInt16(zip64Length))
        if sizesZip64 {
          bytes.append(record.size)
          bytes.append(record.compressedSize)
        }
        if offsetZip64 { bytes.append(record.localHeaderOffset) }
      }
    }
  }

  /// Whether the time fits the extended-timestamp field's signed 32 bits.
  private var hasExtendedTimestamp: Bool { Int32(exactly: modificationTime) != nil }

  /// The extended-timestamp field (modification time only; the same in both
  /// headers), or nothing when the time does not fit its signed 32 bits.
  private func appendExtendedTimestamp(to bytes: inout LittleEndianBytes) {
    guard let seconds = Int32(exactly: modificationTime) else { return }
    bytes.append(Self.extendedTimestampTag)
    bytes.append(UInt16(5))
    bytes.append(UInt8(1))  // flags: modification time present
    bytes.append(UInt32(bitPattern: seconds))
  }

  /// The MS-DOS time and date of a UTC time: two-second steps, 1980 to 2107
  /// (times outside are clamped to the range's ends).
  ///
  /// - Parameter seconds: Seconds since 1970, UTC.
  /// - Returns: The time and date fields.
  static func dosDateTime(_ seconds: Int64) -> (time: UInt16, date: UInt16) {
    let earliest: Int64 = 315_532_800  // 1980-01-01 00:00:00 UTC
    let latest: Int64 = 4_354_819_198  // 2107-12-31 23:59:58 UTC
    let clamped = min(max(seconds, earliest), latest)
    let (days, second) = clamped.quotientAndRemainder(dividingBy: 86_400)
    // Arithmetic, where `gmtime_r` cost more than the rest of both headers of an entry.
    let (year, month, day) = CivilCalendar.date(days: Int(days))
    let date = UInt16(year - 1980) << 9 | UInt16(month) << 5 | UInt16(day)
    let time = UInt16(second / 3600) << 11 | UInt16(second / 60 % 60) << 5 | UInt16(second % 60 / 2)
    return (time, date)
  }
}
