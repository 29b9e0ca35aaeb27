/// Reads the extension headers of each tar entry as libarchive read them, to refuse a
/// name that libarchive would silently cut short.
///
/// A pax record stores its length (`29 path=nul\0hidden.txt\n`) and a GNU
/// long-name entry its size, so a name may hold a NUL byte; libarchive keeps
/// names as C strings and hands over `nul`, so the file system would get a
/// different name from the one the archive records (and `list` would show a
/// third). The scanner sees every byte libarchive is handed; after each header
/// it parses the entry's header blocks (from libarchive's own header position
/// to its read position) and refuses a `path`, `linkpath` or GNU long name
/// holding a NUL, naming the whole recorded name. Bytes libarchive has
/// consumed are dropped, so it holds little more than libarchive's read-ahead.
final class TarHeaderScanner: ArchiveReadObserver {
  /// The longest extension header the scanner parses (libarchive refuses longer ones).
  static let maxExtensionSize: Int64 = 16 << 20

  private var chunks: [(start: Int64, bytes: [UInt8])] = []
  /// The array of a chunk dropped, kept for the next copy: libarchive hands over 128 KiB at
  /// a time, a block the command's malloc gives pages of their own, mapped and unmapped at
  /// every chunk without it (a second of system time for a gigabyte of tar.zst).
  private var spare: [UInt8]?
  private var position: Int64 = 0
  /// Whether bytes are still kept (off once the archive turns out not to be a tar).
  private(set) var isActive = true

  func observe(_ bytes: UnsafeRawBufferPointer) {
    guard isActive else { return }
    var copy = spare.take() ?? []
    copy.removeAll(keepingCapacity: true)
    copy.append(contentsOf: bytes)
    chunks.append((position, copy))
    position += Int64(bytes.count)
  }

  func skipped(_ count: Int64) {
    recycle(chunks.count)
    position += count
  }

  /// Drops the first `count` chunks, keeping one array for the next copy.
  private func recycle(_ count: Int) {
    if count > 0, spare == nil { spare = chunks[count - 1].bytes }
    chunks.removeFirst(count)
  }

  /// Stops keeping bytes: the archive is not a tar.
  func stop() {
    isActive = false
    chunks = []
    spare = nil
  }

  /// Drops the bytes before `offset` (libarchive has consumed them).
  ///
  /// - Parameter offset: libarchive's read position in the decoded stream.
  func discard(before offset: Int64) {
    var drop = 0
    while drop < chunks.count && chunks[drop].start + Int64(chunks[drop].bytes.count) <= offset {
      drop += 1
    }
    if drop > 0 { recycle(drop) }
  }

  /// The name and link target one entry's headers record, as bytes.
  struct RecordedNames {
    /// The pax `path`, else the GNU long name, else the ustar prefix and name.
    var path: [UInt8]?
    /// The pax `linkpath`, else the GNU long link, else the ustar link name.
    var linkPath: [UInt8]?
  }

  /// Parses the header blocks of one entry, `[start, end)` of the decoded stream.
  ///
  /// - Parameters:
  ///   - start: Where libarchive began reading the entry's headers.
  ///   - end: Where its headers end (libarchive's read position after the header).
  /// - Returns: The names the headers record, as bytes, or `nil` when the scanner does not
  ///   hold the headers (it then judges nothing).
  /// - Throws: ``PackagingError`` (`nul-in-name`) naming the recorded name.
  func checkHeaders(from start: Int64, to end: Int64) throws -> RecordedNames? {
    guard isActive, end > start else { return nil }
    var pax = RecordedNames()
    var gnu = RecordedNames()
    var offset = start
    while offset + 512 <= end, let block = bytes(from: offset, count: 512) {
      if block.allSatisfy({ $0 == 0 }) {
        offset += 512
        continue
      }
      let type = block[156]
      guard let size = Self.number(block[124..<136]), size >= 0,
        size <= Self.maxExtensionSize
      else { return nil }
      let dataStart = offset + 512
      switch type {
      case UInt8(ascii: "x"), UInt8(ascii: "X"):
        guard let data = bytes(from: dataStart, count: Int(size)) else { return nil }
        try checkPaxRecords(data, into: &pax)
      case UInt8(ascii: "g"):
        guard let data = bytes(from: dataStart, count: Int(size)) else { return nil }
        var global = RecordedNames()
        try checkPaxRecords(data, into: &global)
      case UInt8(ascii: "L"), UInt8(ascii: "K"):
        guard let data = bytes(from: dataStart, count: Int(size)) else { return nil }
        var name = data[...]
        while name.last == 0 { name = name.dropLast() }
        let what = type == UInt8(ascii: "L") ? "name" : "link target"
        if name.contains(0) {
          throw nulError(Array(name), what: what, record: "GNU long-\(what) entry")
        }
        if type == UInt8(ascii: "L") { gnu.path = Array(name) } else { gnu.linkPath = Array(name) }
      default:
        // The entry's own header: ustar's name (after its prefix) and link name, unless an
        // extension header recorded them.
        var path = Self.field(block[0..<100])
        if block[257..<263].elementsEqual("ustar\0".utf8) {
          let prefix = Self.field(block[345..<500])
          if !prefix.isEmpty { path = prefix + [UInt8(ascii: "/")] + path }
        }
        let link = Self.field(block[157..<257])
        return RecordedNames(
          path: pax.path ?? gnu.path ?? path,
          linkPath: pax.linkPath ?? gnu.linkPath ?? (link.isEmpty ? nil : link))
      }
      offset = dataStart + (size + 511) / 512 * 512
    }
    return nil
  }

  /// A NUL-terminated header field's bytes.
  private static func field(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
    Array(bytes.prefix { $0 != 0 })
  }

  /// Refuses a `path` or `linkpath` record whose value holds a NUL, and keeps both.
  private func checkPaxRecords(_ data: [UInt8], into names: inout RecordedNames) throws {
    var index = 0
    while index < data.count {
      var length = 0
      var cursor = index
      while cursor < data.count, (0x30...0x39).contains(data[cursor]), length < 1 << 24 {
        length = length * 10 + Int(data[cursor] - 0x30)
        cursor += 1
      }
      guard cursor < data.count, data[cursor] == 0x20, length > cursor - index,
        index + length <= data.count
      else { return }  // malformed: libarchive judges it
      let record = data[(cursor + 1)..<(index + length)]
      guard let equals = record.firstIndex(of: UInt8(ascii: "=")) else { return }
      let key = String(decoding: record[record.startIndex..<equals], as: UTF8.self)
      var value = record[(equals + 1)...]
      if value.last == 0x0A { value = value.dropLast() }
      if ["path", "linkpath", "GNU.sparse.name"].contains(key), value.contains(0) {
        let what = key == "linkpath" ? "link target" : "name"
        throw nulError(Array(value), what: what, record: "pax '\(key)' record")
      }
      switch key {
      case "path", "GNU.sparse.name": names.path = Array(value)
      case "linkpath": names.linkPath = Array(value)
      default: break
      }
      index += length
    }
  }

  private func nulError(_ name: [UInt8], what: String, record: String) -> PackagingError {
    let kept = name.prefix { $0 != 0 }.count
    return PackagingError(
      .nulInName,
      "entry \(EntryName(bytes: name).display) has a NUL byte in its \(what): its \(record) holds \(name.count) bytes, of which only the first \(kept) would reach the file system"
    )
  }

  /// `count` bytes from `offset`, gathered from the kept chunks, or `nil` when not kept.
  private func bytes(from offset: Int64, count: Int) -> [UInt8]? {
    var result: [UInt8] = []
    result.reserveCapacity(count)
    var cursor = offset
    let end = offset + Int64(count)
    for chunk in chunks where cursor < end {
      let chunkEnd = chunk.start + Int64(chunk.bytes.count)
      guard chunkEnd > cursor else { continue }
      guard chunk.start <= cursor else { return nil }
      let from = Int(cursor - chunk.start)
      let to = Int(min(end, chunkEnd) - chunk.start)
      result.append(contentsOf: chunk.bytes[from..<to])
      cursor += Int64(to - from)
    }
    return cursor == end ? result : nil
  }

  /// A tar numeric field: octal digits (spaces and NULs around them), or base-256 when
  /// its first byte has the high bit set.
  static func number(_ field: ArraySlice<UInt8>) -> Int64? {
    guard let first = field.first else { return nil }
    if first & 0x80 != 0 {
      var value: Int64 = Int64(first & 0x3F)
      for byte in field.dropFirst() {
        guard value <= Int64.max >> 8 else { return nil }
        value = value << 8 | Int64(byte)
      }
      return first & 0x40 != 0 ? nil : value
    }
    var value: Int64 = 0
    var seenDigit = false
    for byte in field {
      switch byte {
      case 0x30...0x37:
        guard value <= Int64.max >> 3 else { return nil }
        value = value << 3 | Int64(byte - 0x30)
        seenDigit = true
      case 0x20, 0x00:
        if seenDigit { return value }
      default:
        return nil
      }
    }
    return value
  }
}
