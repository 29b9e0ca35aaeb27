/// Where a zip archive's central directory is, from its end records, each checked against
/// the others.
///
/// The end record, the ZIP64 locator and the ZIP64 end record must agree, or
/// the archive is refused: readers that trust different records read
/// different archives, which is how a bomb hides behind a harmless listing.
/// The rules:
///
/// - The end record is the last end-record signature in the file's last
///   64 KiB, as unzip, Python and libarchive search for it; no earlier end
///   record's comment may hold it (a decoy inside a comment, which readers
///   that want the comment to close the file would not take). Bytes after
///   its comment (a signature appended by a signing tool) and a comment
///   that the file cuts short are read as those readers read them, and
///   reported (``trailingLength``, ``missingCommentLength``).
/// - Single volume only: disk numbers 0, entries on this disk = all entries.
/// - A ZIP64 locator (disk 0, at most one disk in all) must point at a ZIP64
///   end record that ends exactly where the locator starts; each field of
///   the 32-bit end record equals the ZIP64 one or is the 0xFFFF/0xFFFFFFFF
///   sentinel.
/// - The directory ends where the (ZIP64) end record starts; bytes before the
///   first offset (a self-extractor's stub, `zip -A` or not) shift every
///   offset by the same amount.
struct ZipDirectoryLocation: Sendable {
  /// Where the first central-directory record starts in the file.
  var directoryStart: Int64
  /// Where the directory ends: the ZIP64 end record, or the end record.
  var directoryEnd: Int64
  /// How many records the directory holds.
  var entryCount: Int
  /// Bytes before the archive proper (a self-extractor's stub); stored offsets are
  /// relative to it.
  var prefixLength: Int64
  /// Whether ZIP64 end records were present.
  var isZip64: Bool
  /// Where the end record is.
  var endRecordOffset: Int64 = 0
  /// Bytes after the end record and its comment, which belong to no entry.
  var trailingLength: Int64 = 0
  /// Bytes of the comment the end record states that the file does not hold.
  var missingCommentLength: Int = 0

  private static let endSignature: UInt32 = 0x0605_4B50
  private static let locatorSignature: UInt32 = 0x0706_4B50
  private static let zip64EndSignature: UInt32 = 0x0606_4B50
  private static let endRecordLength = 22
  private static let locatorLength = 20
  private static let zip64EndLength = 56
  private static let maxCommentLength = 0xFFFF

  /// Whether a file ends like a zip archive: an end record whose comment reaches the end,
  /// or one followed by bytes of no entry whose central directory is where it says.
  ///
  /// Used to recognise a zip behind a self-extractor's stub, which does not start
  /// with a zip signature. A file that starts like another archive Folio reads is that
  /// archive, whatever zip its last member is, unless an end record closes it exactly.
  ///
  /// - Parameter file: The file.
  /// - Returns: `true` when the file ends like a zip.
  static func endsLikeZip(_ file: ArchiveFile) throws -> Bool {
    let searchLength = Int(min(file.size, Int64(endRecordLength + maxCommentLength)))
    guard searchLength >= endRecordLength,
      let tail = try file.bytes(at: file.size - Int64(searchLength), count: searchLength)
    else { return false }
    let found = candidates(in: tail)
    if found.contains(where: \.reachesEnd) { return true }
    guard !found.isEmpty, !(try startsLikeAnotherArchive(file)),
      let location = try? locate(in: file, maxEntries: Int.max)
    else { return false }
    guard location.entryCount > 0 else { return true }
    return try file.bytes(at: location.directoryStart, count: 4)?.uint32(at: 0) == 0x0201_4B50
  }

  /// Whether a file starts with the signature of another format libarchive reads, which
  /// may end with a zip member followed by its own trailer or padding.
  private static func startsLikeAnotherArchive(_ file: ArchiveFile) throws -> Bool {
    let head = try file.bytes(at: 0, count: Int(min(file.size, 8))) ?? []
    let signatures: [[UInt8]] = [
      Array("070707".utf8), Array("070701".utf8), Array("070702".utf8), [0xC7, 0x71],
      [0x71, 0xC7], Array("!<arch>\n".utf8), Array("xar!".utf8), Array("MSCF".utf8),
      Array("Rar!".utf8), [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], Array("WARC/".utf8),
    ]
    if signatures.contains(where: { head.starts(with: $0) }) { return true }
    if head.count >= 5, head[2] == UInt8(ascii: "-"), head[3] == UInt8(ascii: "l") {
      return true  // LHA: "-lh5-" at offset 2
    }
    let volume = try file.bytes(at: 0x8001, count: 5) ?? []
    return volume.elementsEqual("CD001".utf8)
  }

  /// Finds and cross-checks the end records.
  ///
  /// - Parameters:
  ///   - file: The archive.
  ///   - maxEntries: Refuse before reading records when the end records declare more.
  /// - Returns: The directory's place and size.
  /// - Throws: ``PackagingError`` (`malformed-zip`, `too-many-entries`) saying which
  ///   records disagree.
  static func locate(in file: ArchiveFile, maxEntries: Int) throws -> Self {
    func malformed(_ text: String) -> PackagingError {
      PackagingError(.malformedZip, "'\(file.name)': \(text)")
    }
    let searchLength = Int(min(file.size, Int64(endRecordLength + maxCommentLength)))
    guard searchLength >= endRecordLength,
      let tail = try file.bytes(at: file.size - Int64(searchLength), count: searchLength)
    else { throw malformed("too short for a zip end record") }
    let tailStart = file.size - Int64(searchLength)

    // 1. The last end record, which no earlier one's comment holds.
    let found = candidates(in: tail)
    guard let chosen = found.last else { throw malformed("no end-of-central-directory record") }
    if found.dropLast().contains(where: {
      let commentEnd = $0.index + endRecordLength + $0.commentLength
      return commentEnd > chosen.index && commentEnd <= tail.count
    }) {
      throw malformed(
        "it has more than one end-of-central-directory record (one inside another's comment)")
    }
    let commentEnd = chosen.index + endRecordLength + chosen.commentLength
    let end = chosen.index
    let endOffset = tailStart + Int64(end)
    let endDisk = UInt32(tail.uint16(at: end + 4))
    let endDirectoryDisk = UInt32(tail.uint16(at: end + 6))
    let endEntriesOnDisk = UInt64(tail.uint16(at: end + 8))
    let endEntries = UInt64(tail.uint16(at: end + 10))
    let endDirectorySize = UInt64(tail.uint32(at: end + 12))
    let endDirectoryOffset = UInt64(tail.uint32(at: end + 16))

    var disk = endDisk
    var directoryDisk = endDirectoryDisk
    var entriesOnDisk = endEntriesOnDisk
    var entries = endEntries
    var directorySize = endDirectorySize
    var directoryOffset = endDirectoryOffset
    var directoryEnd = endOffset
    var zip64Prefix: Int64?

    // 2. ZIP64: a locator right before the end record, and the record it points at.
    let locatorOffset = endOffset - Int64(locatorLength)
    if locatorOffset >= 0,
      let locator = try file.bytes(at: locatorOffset, count: locatorLength),
      locator.uint32(at: 0) == locatorSignature
    {
      let recordDisk = locator.uint32(at: 4)
      let statedOffset = locator.uint64(at: 8)
      let totalDisks = locator.uint32(at: 16)
      guard recordDisk == 0, totalDisks <= 1 else {
        throw malformed(
          "the ZIP64 locator names disk \(recordDisk) of \(totalDisks): multi-volume archives are not supported"
        )
      }
      let recordOffset = try zip64RecordOffset(
        file, stated: statedOffset, locatorOffset: locatorOffset, malformed: malformed)
      guard let record = try file.bytes(at: recordOffset, count: zip64EndLength) else {
        throw malformed("the ZIP64 end record lies outside the file")
      }
      disk = record.uint32(at: 16)
      directoryDisk = record.uint32(at: 20)
      entriesOnDisk = record.uint64(at: 24)
      entries = record.uint64(at: 32)
      directorySize = record.uint64(at: 40)
      directoryOffset = record.uint64(at: 48)
      directoryEnd = recordOffset
      zip64Prefix = recordOffset - Int64(clamping: statedOffset)
      // Each 32-bit field equals its ZIP64 value or says "see ZIP64".
      let pairs: [(String, UInt64, UInt64, UInt64)] = [
        ("disk number", UInt64(endDisk), UInt64(disk), 0xFFFF),
        ("directory disk", UInt64(endDirectoryDisk), UInt64(directoryDisk), 0xFFFF),
        ("entries on this disk", endEntriesOnDisk, entriesOnDisk, 0xFFFF),
        ("entry count", endEntries, entries, 0xFFFF),
        ("directory size", endDirectorySize, directorySize, 0xFFFF_FFFF),
        ("directory offset", endDirectoryOffset, directoryOffset, 0xFFFF_FFFF),
      ]
      for (what, old, new, sentinel) in pairs where old != new && old != sentinel {
        throw malformed(
          "the end record and the ZIP64 end record disagree on the \(what) (\(old) and \(new))")
      }
    }
    guard disk == 0, directoryDisk == 0, entriesOnDisk == entries else {
      throw malformed("multi-volume archives are not supported")
    }
    guard entries <= UInt64(maxEntries) else {
      throw PackagingError(
        .tooManyEntries,
        "'\(file.name)' declares \(entries) entries, more than the limit of \(maxEntries)")
    }
    guard directorySize <= UInt64(directoryEnd), directoryOffset <= UInt64(directoryEnd) else {
      throw malformed("the central directory lies outside the file")
    }
    let directoryStart = directoryEnd - Int64(directorySize)
    let prefix = directoryStart - Int64(directoryOffset)
    guard prefix >= 0 else { throw malformed("the central directory lies outside the file") }
    if let zip64Prefix, zip64Prefix != prefix {
      throw malformed(
        "the ZIP64 locator and the central directory are shifted by different amounts (\(zip64Prefix) and \(prefix) bytes)"
      )
    }
    // A record is at least 46 bytes: a count that cannot fit is a lie.
    guard entries <= directorySize / 46 else {
      throw malformed("\(entries) entries cannot fit in a \(directorySize)-byte central directory")
    }
    return ZipDirectoryLocation(
      directoryStart: directoryStart, directoryEnd: directoryEnd, entryCount: Int(entries),
      prefixLength: prefix, isZip64: zip64Prefix != nil, endRecordOffset: endOffset,
      trailingLength: Int64(max(0, tail.count - commentEnd)),
      missingCommentLength: max(0, commentEnd - tail.count))
  }

  /// One end-record signature in the file's tail.
  private struct Candidate {
    var index: Int
    var commentLength: Int
    var reachesEnd: Bool
  }

  /// Every end-record signature in `tail` with room for its fixed part, in file order.
  private static func candidates(in tail: [UInt8]) -> [Candidate] {
    var found: [Candidate] = []
    var index = 0
    while index + endRecordLength <= tail.count {
      if tail[index] == 0x50, tail.uint32(at: index) == endSignature {
        let comment = Int(tail.uint16(at: index + 20))
        found.append(
          Candidate(
            index: index, commentLength: comment,
            reachesEnd: index + endRecordLength + comment == tail.count))
      }
      index += 1
    }
    return found
  }

  /// Where the ZIP64 end record is: at the offset the locator states, or (behind a
  /// self-extractor's stub) at that offset shifted by the stub; either way it must end
  /// exactly where the locator starts.
  private static func zip64RecordOffset(
    _ file: ArchiveFile, stated: UInt64, locatorOffset: Int64,
    malformed: (String) -> PackagingError
  ) throws -> Int64 {
    func recordLength(at offset: Int64) throws -> Int64? {
      guard offset >= 0, let head = try file.bytes(at: offset, count: 12),
        head.uint32(at: 0) == zip64EndSignature
      else { return nil }
      let size = head.uint64(at: 4)
      guard size >= 44, size <= UInt64(locatorOffset) else { return nil }
      return 12 + Int64(size)
    }
    if stated <= UInt64(locatorOffset), let length = try recordLength(at: Int64(stated)),
      Int64(stated) + length == locatorOffset
    {
      return Int64(stated)
    }
    // Shifted by a stub: the usual 56-byte record right before the locator.
    let shifted = locatorOffset - Int64(zip64EndLength)
    if let length = try recordLength(at: shifted), shifted + length == locatorOffset,
      UInt64(shifted) >= stated
    {
      return shifted
    }
    throw malformed("the ZIP64 end record is missing or does not end where its locator starts")
  }
}
