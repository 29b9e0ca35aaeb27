/// Walks an ISO 9660 image's directories before libarchive reads it, and refuses one
/// whose Rock Ridge continuation areas loop.
///
/// A directory record's System Use area may continue in a continuation area (a SUSP `CE`
/// entry: block, offset, length), which may hold another `CE`. libarchive's reader parses
/// every area that starts in the block it is at before moving on, so an area whose `CE`
/// leads back to an area already read makes it parse forever, without reading another
/// byte of the file (bsdtar hangs the same way); nothing after the fact could stop it.
/// This check follows each chain itself, within bounds: a chain that reaches an area a
/// second time, or runs longer than any writer makes one, is refused, as is a directory
/// tree past the entry limit. Damage it does not understand is left for libarchive to
/// report.
struct RockRidgeContinuationCheck {
  private let file: ArchiveFile
  private let maxRecords: Int
  private static let sector = 2048
  /// More continuation areas than any writer chains for one record (xorriso and
  /// genisoimage use one or two): SUSP gives no limit, so a longer chain is refused.
  static let maxChainLength = 64
  private static let volumeDescriptorLimit = 64

  /// Whether a file is an ISO 9660 image: "CD001" in the first volume descriptor.
  ///
  /// - Parameter file: The file.
  /// - Returns: `true` for an ISO 9660 image.
  static func isISO9660(_ file: ArchiveFile) throws -> Bool {
    try file.bytes(at: 16 * Int64(sector) + 1, count: 5)?.elementsEqual("CD001".utf8) == true
  }

  /// Checks every volume's directory tree.
  ///
  /// - Parameters:
  ///   - file: The image.
  ///   - maxRecords: Refuse a tree with more entries than this (`.` and `..` not counted).
  /// - Throws: ``PackagingError`` (`corrupt-archive`) naming the entry whose continuation
  ///   areas loop; `too-many-entries`.
  static func check(_ file: ArchiveFile, maxRecords: Int) throws {
    try RockRidgeContinuationCheck(file: file, maxRecords: maxRecords).run()
  }

  private func run() throws {
    var roots: [(extent: Int64, size: Int64)] = []
    for index in 0..<Self.volumeDescriptorLimit {
      guard
        let descriptor = try file.bytes(
          at: Int64(16 + index) * Int64(Self.sector), count: Self.sector),
        descriptor[1...5].elementsEqual("CD001".utf8)
      else { break }
      if descriptor[0] == 255 { break }
      // Primary (1) and supplementary (2, Joliet) volumes: the root record at 156.
      if descriptor[0] == 1 || descriptor[0] == 2 {
        roots.append(
          (Int64(descriptor.uint32(at: 156 + 2)), Int64(descriptor.uint32(at: 156 + 10))))
      }
    }
    var records = 0
    for root in roots {
      try walk(root: root, records: &records)
    }
  }

  /// Reads the tree under one root, each directory extent once.
  private func walk(root: (extent: Int64, size: Int64), records: inout Int) throws {
    var pending = [root]
    var seen: Set<Int64> = []
    var skip = 0
    var isRootRecord = true
    while let directory = pending.popLast() {
      guard seen.insert(directory.extent).inserted else { continue }
      let start = directory.extent * Int64(Self.sector)
      var offset: Int64 = 0
      while offset < directory.size {
        guard let block = try file.bytes(at: start + offset, count: Self.sector) else { return }
        var at = 0
        while at < Self.sector {
          let length = Int(block[at])
          guard length >= 34, at + length <= Self.sector else { break }
          let record = Array(block[at..<(at + length)])
          at += length
          let nameLength = Int(record[32])
          let name = record.count >= 33 + nameLength ? Array(record[33..<(33 + nameLength)]) : []
          let isDotEntry = nameLength == 1 && (name[0] == 0 || name[0] == 1)
          if !isDotEntry {
            records += 1
            guard records <= maxRecords else {
              throw PackagingError(
                .tooManyEntries,
                "'\(file.name)' has more than \(maxRecords) entries, the limit")
            }
          }
          var systemUse = 33 + nameLength + (nameLength % 2 == 0 ? 1 : 0)
          if !isRootRecord { systemUse += skip }
          if systemUse < record.count {
            let area = Array(record[systemUse...])
            if isRootRecord, let sharing = Self.sharingSkip(area) { skip = sharing }
            // "." and ".." are stored as the bytes 0 and 1.
            let shown = isDotEntry ? Array(name[0] == 0 ? ".".utf8 : "..".utf8) : name
            try followContinuations(from: area, entry: shown)
          }
          isRootRecord = false
          if record[25] & 0x02 != 0, !isDotEntry {
            pending.append((Int64(record.uint32(at: 2)), Int64(record.uint32(at: 10))))
          }
        }
        offset += Int64(Self.sector)
      }
    }
  }

  /// The SUSP `SP` entry's skip count, from the root's own record.
  private static func sharingSkip(_ area: [UInt8]) -> Int? {
    guard area.count >= 7, area[0] == UInt8(ascii: "S"), area[1] == UInt8(ascii: "P"),
      area[4] == 0xBE, area[5] == 0xEF
    else { return nil }
    return Int(area[6])
  }

  /// One continuation area: where it starts and how long it is.
  private struct Area: Hashable {
    var block: UInt32
    var offset: UInt32
    var length: UInt32
  }

  /// Follows the chain of `CE` entries from one System Use area.
  private func followContinuations(from area: [UInt8], entry: [UInt8]) throws {
    var next = Self.continuation(in: area[...])
    var visited: Set<Area> = []
    while let current = next {
      guard visited.insert(current).inserted else {
        throw PackagingError(
          .corruptArchive,
          "'\(file.name)': the Rock Ridge continuation areas of entry \(EntryName(bytes: entry).display) loop (block \(current.block), offset \(current.offset) is reached again)"
        )
      }
      guard visited.count <= Self.maxChainLength else {
        throw PackagingError(
          .corruptArchive,
          "'\(file.name)': entry \(EntryName(bytes: entry).display) chains more than \(Self.maxChainLength) Rock Ridge continuation areas"
        )
      }
      // libarchive refuses an area outside one block or the image itself.
      guard current.length > 0, Int(current.offset) + Int(current.length) <= Self.sector,
        let bytes = try file.bytes(
          at: Int64(current.block) * Int64(Self.sector) + Int64(current.offset),
          count: Int(current.length))
      else { return }
      next = Self.continuation(in: bytes[...])
    }
  }

  /// The `CE` entry of a System Use area, if it has one before its end (`ST`).
  private static func continuation(in area: ArraySlice<UInt8>) -> Area? {
    var at = area.startIndex
    while at + 4 <= area.endIndex {
      let length = Int(area[at + 2])
      guard length >= 4, at + length <= area.endIndex else { return nil }
      let signature = (area[at], area[at + 1])
      if signature == (UInt8(ascii: "S"), UInt8(ascii: "T")) { return nil }
      if signature == (UInt8(ascii: "C"), UInt8(ascii: "E")), length >= 28 {
        return Area(
          block: area.uint32(at: at + 4), offset: area.uint32(at: at + 12),
          length: area.uint32(at: at + 20))
      }
      at += length
    }
    return nil
  }
}
