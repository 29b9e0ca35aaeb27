import FoundationEssentials
import Glibc

/// A zip archive opened through its central directory, every structure checked
/// before a byte of data is read: Folio's one zip reader.
///
/// Opening reads the end records (``ZipDirectoryLocation``), then each
/// central-directory record and the local header it points at, and refuses
/// the archive when anything disagrees: a local header whose name, method,
/// encryption flag, CRC-32 or sizes differ from its record; data that runs
/// into the directory; two entries whose local header and data overlap (a
/// non-recursive zip bomb); a directory holding more or fewer records than
/// the end record declares. The entries it lists are exactly the entries it
/// reads, at the offsets it checked; there is no streaming fallback, so
/// local entries that no directory record names are never read.
///
/// ## Reading entries from several threads
///
/// A `ZipArchive` is immutable once opened and `Sendable`. Its file is read
/// only with `pread`, which moves no shared position, so any number of
/// threads may each read entries at once: give every worker its own
/// ``ZipEntryReader`` (``reader(for:)``), which owns its decoder and
/// buffers, and read each entry on one thread from start to end:
///
/// ```swift
/// let archive = try ZipArchive(file: ArchiveFile(path: path), maxEntries: limit)
/// DispatchQueue.concurrentPerform(iterations: archive.entryCount) { index in
///   let reader = try archive.reader(for: archive.entry(at: index))
///   while let chunk = try reader.next() { /* write it */ }  // size and CRC-32 checked at the end
/// }
/// ```
///
/// A reader checks the entry's size and CRC-32 itself; the expansion's byte
/// and ratio budgets are the caller's (``ExpansionBudget`` is safe to share).
final class ZipArchive: Sendable {
  /// The file, shared by every reader.
  let file: ArchiveFile
  /// Where the central directory is.
  let location: ZipDirectoryLocation
  /// The decompressors its readers borrow for small DEFLATE entries.
  let decompressors = DeflateDecompressorPool()
  /// What was read as peers read it (names with Windows separators).
  let warnings: [ArchiveWarning]
  private let table: [StoredEntry]
  private let names: [UInt8]
  /// Every local header's bytes, one after another, when kept; `localHeaderStarts[i]` is
  /// where entry `i`'s begin (one more start closes the last).
  private let localHeaders: [UInt8]
  private let localHeaderStarts: [Int]

  /// How many entries the central directory lists.
  var entryCount: Int { table.count }

  /// The archive's name for messages.
  var name: String { file.name }

  /// Whether a file is a zip archive: it starts with a zip signature, or (a
  /// self-extractor) an end record closes it.
  ///
  /// - Parameter file: The file.
  /// - Returns: `true` for a zip.
  static func isZip(_ file: ArchiveFile) throws -> Bool {
    if let head = try file.bytes(at: 0, count: 4), startsLikeZip(head) { return true }
    return try ZipDirectoryLocation.endsLikeZip(file)
  }

  /// Whether bytes start like a zip archive (`PK\3\4`, `PK\5\6`, or the spanning marker
  /// `PK\7\8` before the first entry).
  ///
  /// - Parameter head: At least four bytes.
  /// - Returns: `true` for a zip signature.
  static func startsLikeZip(_ head: [UInt8]) -> Bool {
    guard head.count >= 4, head[0] == 0x50, head[1] == 0x4B else { return false }
    return (head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6)
      || (head[2] == 7 && head[3] == 8)
  }

  /// Opens and checks an archive.
  ///
  /// Memory grows with the number of entries (about 100 bytes plus the name for
  /// each), never with the archive's size.
  ///
  /// - Parameters:
  ///   - file: The archive.
  ///   - maxEntries: Refuse an archive declaring more entries, before reading them.
  ///   - nameEncoding: How names without the UTF-8 flag are read.
  ///   - keepsLocalHeaders: Whether every local header's bytes are kept
  ///     (``hasLocalHeader(at:equalTo:)``), for a writer that copies entries whose headers
  ///     it would write the same.
  /// - Throws: ``PackagingError``: `malformed-zip` naming what is damaged,
  ///   `header-mismatch` and `overlapping-entries` naming the entries,
  ///   `too-many-entries`.
  init(
    file: ArchiveFile, maxEntries: Int, nameEncoding: ZipNameEncoding = .specification,
    keepsLocalHeaders: Bool = false
  ) throws {
    self.file = file
    let location = try ZipDirectoryLocation.locate(in: file, maxEntries: maxEntries)
    self.location = location
    let decoder = try ZipLegacyNameDecoder(nameEncoding) {
      try Self.legacyNames(in: ArchiveFileWindow(file), location: location)
    }
    var table: [StoredEntry] = []
    var names: [UInt8] = []
    // Reserved up front from the directory's size, which bounds the records and their names
    // (and about equals the local headers'), so no buffer is copied as it grows; pages
    // reserved and never written cost nothing.
    let directorySize = Int(min(location.directoryEnd - location.directoryStart, 64 << 20))
    let recordCount = min(location.entryCount, directorySize / 46 + 1)
    table.reserveCapacity(recordCount)
    names.reserveCapacity(directorySize)
    let directory = ArchiveFileWindow(file)
    let locals = ArchiveFileWindow(file)
    var offset = location.directoryStart
    var notes = NameNotes()
    var localHeaders: [UInt8]? = keepsLocalHeaders ? [] : nil
    var localHeaderStarts: [Int] = keepsLocalHeaders ? [0] : []
    if keepsLocalHeaders {
      localHeaders?.reserveCapacity(directorySize)
      localHeaderStarts.reserveCapacity(recordCount + 1)
    }
    // Each record's stored name is read into the same buffer, emptied for the next: an
    // array made for every record was an allocation and a free each.
    var rawName: [UInt8] = []
    for index in 0..<location.entryCount {
      let (entry, length) = try Self.readRecord(
        at: offset, index: index, directory: directory, locals: locals, location: location,
        names: &names, notes: &notes, decoder: decoder, localHeaders: &localHeaders,
        rawName: &rawName)
      table.append(entry)
      offset += length
      if let localHeaders { localHeaderStarts.append(localHeaders.count) }
    }
    self.localHeaders = localHeaders ?? []
    self.localHeaderStarts = localHeaderStarts
    if offset != location.directoryEnd {
      throw PackagingError(
        .malformedZip,
        "'\(file.name)': the central directory holds more than the \(location.entryCount) records its end record declares"
      )
    }
    self.table = table
    self.names = names
    var warnings: [ArchiveWarning] = []
    if let (stored, read) = notes.firstLegacy {
      let entries = notes.legacy == 1 ? "entry's name" : "\(notes.legacy) entries' names"
      let how =
        nameEncoding == .specification
        ? "are not UTF-8 and were read as CP437, as the zip specification says"
        : "were read as \(notes.legacyLabel) (\(nameEncoding == .automatic ? "chosen as the encoding that reads every name" : "as asked"))"
      warnings.append(
        ArchiveWarning(
          code: "legacy-name-encoding",
          message:
            "'\(file.name)': \(entries) without the UTF-8 flag \(how) (\(stored.display) as \(read.display))"
        ))
    }
    if let first = notes.firstWindows {
      // One warning for the archive, as unzip gives: a Windows zip names every entry so.
      let entries = notes.windows == 1 ? "entry" : "\(notes.windows) entries"
      warnings.append(
        ArchiveWarning(
          code: "windows-separators",
          message:
            "'\(file.name)': \(entries) written on Windows use '\\' as the folder separator, read as '/' (\(first.display))"
        ))
    }
    if let (entry, header, length) = notes.firstPadded {
      let entries = notes.padded == 1 ? "an entry's" : "\(notes.padded) entries'"
      warnings.append(
        ArchiveWarning(
          code: "zip-extra-field-padding",
          message:
            "'\(file.name)': \(entries) extra fields end with bytes that are no field (\(length) in the \(header) of \(entry.display)), ignored as unzip and bsdtar ignore them"
        ))
    }
    if location.trailingLength > 0 {
      warnings.append(
        ArchiveWarning(
          code: "zip-trailing-data",
          message:
            "'\(file.name)': \(location.trailingLength) bytes after the end-of-central-directory record (from offset \(file.size - location.trailingLength)) belong to no entry and were ignored, as unzip and bsdtar ignore them"
        ))
    }
    if location.missingCommentLength > 0 {
      warnings.append(
        ArchiveWarning(
          code: "zip-comment-cut-short",
          message:
            "'\(file.name)': the archive comment ends \(location.missingCommentLength) bytes before the length its end-of-central-directory record states (the file ends first); every entry lies before it"
        ))
    }
    self.warnings = warnings
    try checkOverlaps()
  }

  /// One entry, by its position in the central directory.
  ///
  /// - Parameter index: From 0 to ``entryCount`` - 1.
  /// - Returns: The entry.
  func entry(at index: Int) -> ZipEntry {
    let stored = table[index]
    return ZipEntry(
      index: index, name: EntryName(bytes: Array(names[stored.nameRange])), kind: stored.kind,
      permissions: stored.permissions, method: ZipCompressionMethod(rawValue: stored.method),
      flags: stored.flags, crc32: stored.crc32, compressedSize: stored.compressedSize,
      uncompressedSize: stored.uncompressedSize, localHeaderOffset: stored.localHeaderOffset,
      dataOffset: stored.dataOffset, modificationTime: stored.modificationTime,
      ownerID: Int64(stored.ownerID), groupID: Int64(stored.groupID))
  }

  /// One entry's fields as kept, its name in place: for a caller that checks thousands of
  /// entries and reads their names with ``withName(at:_:)`` (``entry(at:)`` copies each
  /// name into an array of its own).
  ///
  /// - Parameter index: From 0 to ``entryCount`` - 1.
  /// - Returns: The entry's fields.
  func storedEntry(at index: Int) -> StoredEntry { table[index] }

  /// Whether an entry's local header as the archive holds it (its name and extra field
  /// too), kept when the archive was opened keeping them, is `header`.
  ///
  /// - Parameters:
  ///   - index: From 0 to ``entryCount`` - 1.
  ///   - header: The bytes to compare with.
  /// - Returns: `false` also when the headers were not kept.
  func hasLocalHeader(at index: Int, equalTo header: UnsafeBufferPointer<UInt8>) -> Bool {
    guard index + 1 < localHeaderStarts.count else { return false }
    let (start, end) = (localHeaderStarts[index], localHeaderStarts[index + 1])
    guard end - start == header.count else { return false }
    return localHeaders.withUnsafeBufferPointer { kept in
      header.isEmpty || memcmp(kept.baseAddress! + start, header.baseAddress!, header.count) == 0
    }
  }

  /// Hands an entry's name to `body` without copying it: the name ``entry(at:)`` gives.
  ///
  /// - Parameters:
  ///   - index: From 0 to ``entryCount`` - 1.
  ///   - body: Given the name's bytes.
  /// - Returns: What `body` returns.
  func withName<Result>(at index: Int, _ body: (ArraySlice<UInt8>) throws -> Result) rethrows
    -> Result
  {
    try body(names[table[index].nameRange])
  }

  /// A reader for one entry's data, with its own decoder: one per thread.
  ///
  /// - Parameter entry: An entry of this archive.
  /// - Returns: The reader.
  /// - Throws: ``PackagingError`` (`encrypted-entry`, `unsupported-compression`,
  ///   `malformed-zip`) when the entry cannot be read.
  func reader(for entry: ZipEntry) throws -> ZipEntryReader {
    try ZipEntryReader(archive: self, entry: entry)
  }

  // MARK: Reading records

  /// An entry as kept in memory: fixed fields, the name in the shared name buffer.
  ///
  /// 72 bytes, the widest first: offsets that follow from others are kept as their small
  /// distances, since a large directory's entries are all held at the expansion's peak,
  /// beside the check's ledger.
  struct StoredEntry {
    var compressedSize: Int64
    var uncompressedSize: Int64
    var localHeaderOffset: Int64
    var modificationTime: Int64
    var nameStart: Int
    var nameLength: UInt32
    var permissions: UInt32
    var crc32: UInt32
    var ownerID: UInt32
    var groupID: UInt32
    /// From the local header to the data: the header, its name and its extra field (at
    /// most 30 + 2 × 65,535 bytes).
    var dataDistance: UInt32
    var method: UInt16
    var flags: UInt16
    var kind: ArchiveEntryInfo.Kind
    /// From the data's end to the span's: a data descriptor's length (0 to 24 bytes).
    var descriptorLength: UInt8

    var nameRange: Range<Int> { nameStart..<nameStart + Int(nameLength) }
    /// Where the data starts.
    var dataOffset: Int64 { localHeaderOffset + Int64(dataDistance) }
    /// Where the entry's span ends: after its data, and after its data descriptor when
    /// there is one.
    var spanEnd: Int64 { dataOffset + compressedSize + Int64(descriptorLength) }
  }

  /// The names ``ZipNameEncoding/automatic`` judges.
  ///
  /// Every name without the UTF-8 flag, not named by a Unicode Path field, that is not
  /// UTF-8. Damage is left for the records' own reading to report.
  private static func legacyNames(
    in directory: ArchiveFileWindow, location: ZipDirectoryLocation
  ) throws -> [[UInt8]] {
    var found: [[UInt8]] = []
    var offset = location.directoryStart
    for _ in 0..<location.entryCount {
      guard offset + 46 <= location.directoryEnd,
        let fixed = try directory.withBytes(
          at: offset, count: CentralRecordFields.size, CentralRecordFields.init(raw:)),
        fixed.signature == centralSignature
      else { break }
      let flags = fixed.flags
      let nameLength = fixed.nameLength
      let extraLength = fixed.extraLength
      let commentLength = fixed.commentLength
      guard offset + 46 + Int64(nameLength + extraLength) <= location.directoryEnd,
        let (name, extras) = try directory.withBytes(
          at: offset + 46, count: nameLength + extraLength,
          { variable -> ([UInt8], ZipExtraFields?) in
            let extras = try? ZipExtraFields(
              raw: UnsafeRawBufferPointer(rebasing: variable[nameLength...]),
              malformed: { PackagingError(.malformedZip, $0) })
            return (Array(variable[..<nameLength]), extras)
          })
      else { break }
      if flags & 0x800 == 0, extras?.unicodePath == nil,
        String(validating: name, as: UTF8.self) == nil
      {
        found.append(name)
      }
      offset += 46 + Int64(nameLength + extraLength + commentLength)
    }
    return found
  }

  /// How names were read, for the archive's warnings: how many, and the first.
  private struct NameNotes {
    var legacy = 0
    var legacyLabel = ""
    var firstLegacy: (stored: EntryName, read: EntryName)?
    var windows = 0
    var firstWindows: EntryName?
    var padded = 0
    var firstPadded: (entry: EntryName, header: String, length: Int)?
  }

  private static let centralSignature: UInt32 = 0x0201_4B50
  private static let localSignature: UInt32 = 0x0403_4B50
  private static let descriptorSignature: UInt32 = 0x0807_4B50

  /// Reads one central-directory record and its local header, checking both.
  ///
  /// The local header's bytes are appended to `localHeaders` when it is not `nil`.
  /// `rawName` is the caller's buffer for the record's stored name, reused from record to
  /// record.
  private static func readRecord(
    at offset: Int64, index: Int, directory: ArchiveFileWindow, locals: ArchiveFileWindow,
    location: ZipDirectoryLocation, names: inout [UInt8], notes: inout NameNotes,
    decoder: ZipLegacyNameDecoder, localHeaders: inout [UInt8]?, rawName nameBuffer: inout [UInt8]
  ) throws -> (StoredEntry, Int64) {
    let archive = directory.file.name
    func malformed(_ text: String) -> PackagingError {
      PackagingError(.malformedZip, "'\(archive)': \(text)")
    }
    // Each part of a record is read where it lies in its window, not as a slice of it: a
    // slice retained and released the window's buffer, several times a record.
    guard offset + 46 <= location.directoryEnd,
      let fixed = try directory.withBytes(
        at: offset, count: CentralRecordFields.size, CentralRecordFields.init(raw:)),
      fixed.signature == centralSignature
    else { throw malformed("central-directory record \(index + 1) is missing or damaged") }
    let hostSystem = fixed.hostSystem
    let flags = fixed.flags
    let method = fixed.method
    let crc = fixed.crc32
    var compressed = UInt64(fixed.compressedSize)
    var size = UInt64(fixed.size)
    let nameLength = fixed.nameLength
    let extraLength = fixed.extraLength
    let commentLength = fixed.commentLength
    var disk: UInt32? = UInt32(fixed.disk)
    var localOffset: UInt64? = UInt64(fixed.localHeaderOffset)
    let recordLength = 46 + Int64(nameLength + extraLength + commentLength)
    guard offset + recordLength <= location.directoryEnd,
      try directory.withBytes(
        at: offset + 46, count: nameLength,
        { raw -> Bool in
          nameBuffer.removeAll(keepingCapacity: true)
          nameBuffer.append(contentsOf: raw)
          return true
        }) == true
    else { throw malformed("central-directory record \(index + 1) runs past the directory") }
    let rawName = nameBuffer
    // Only a failure needs the name escaped for a message.
    var display: String { EntryName(bytes: rawName).display }
    func entryMalformed(_ text: String) -> PackagingError {
      malformed("entry \(display) has \(text)")
    }
    if flags & 0x2000 != 0 {
      throw malformed("its central directory is encrypted, which Folio cannot read")
    }

    guard
      let extras = try directory.withBytes(
        at: offset + 46 + Int64(nameLength), count: extraLength,
        { try ZipExtraFields(raw: $0, malformed: entryMalformed) })
    else { throw malformed("central-directory record \(index + 1) runs past the directory") }
    try extras.resolveZip64(
      size: &size, compressedSize: &compressed, offset: &localOffset, disk: &disk,
      malformed: entryMalformed)
    guard disk == 0 else { throw malformed("entry \(display) starts on another volume") }
    guard let localOffset, compressed <= UInt64(Int64.max), size <= UInt64(Int64.max),
      localOffset <= UInt64(location.directoryStart)
    else { throw entryMalformed("sizes or an offset out of range") }
    // The local header: the same name, method, encryption and (unless deferred) sizes.
    let localStart = Int64(localOffset) + location.prefixLength
    guard localStart + 30 <= location.directoryStart,
      let localFields = try locals.withBytes(
        at: localStart, count: LocalHeaderFields.size, LocalHeaderFields.init(raw:)),
      localFields.signature == localSignature
    else { throw malformed("entry \(display) has no local header at its offset") }
    let localFlags = localFields.flags
    let localMethod = localFields.method
    let localCRC = localFields.crc32
    var localCompressed = UInt64(localFields.compressedSize)
    var localSize = UInt64(localFields.size)
    let localNameLength = localFields.nameLength
    let localExtraLength = localFields.extraLength
    let dataOffset = localStart + 30 + Int64(localNameLength + localExtraLength)
    func mismatch(_ what: String) -> PackagingError {
      PackagingError(
        .headerMismatch,
        "entry \(display): the local header's \(what) disagrees with the central directory")
    }
    // The whole header at once: kept when asked, its extra fields parsed, and its name
    // compared with the record's in place (most entries) or copied out to be decoded.
    let comparesNamesInPlace = extras.unicodePath == nil
    guard dataOffset <= location.directoryStart,
      let (localExtras, localName) = try locals.withBytes(
        at: localStart, count: 30 + localNameLength + localExtraLength,
        { header -> (ZipExtraFields, [UInt8]?) in
          localHeaders?.append(contentsOf: header)
          let localExtras = try ZipExtraFields(
            raw: UnsafeRawBufferPointer(rebasing: header[(30 + localNameLength)...]),
            malformed: entryMalformed)
          let nameBytes = UnsafeRawBufferPointer(
            rebasing: header[30..<(30 + localNameLength)])
          guard comparesNamesInPlace && localExtras.unicodePath == nil else {
            return (localExtras, Array(nameBytes))
          }
          let same = rawName.withUnsafeBytes { raw in
            nameBytes.count == raw.count
              && (raw.isEmpty || memcmp(nameBytes.baseAddress!, raw.baseAddress!, raw.count) == 0)
          }
          if !same { throw mismatch("name \(EntryName(bytes: Array(nameBytes)).display)") }
          return (localExtras, nil)
        })
    else { throw malformed("entry \(display) has a local header running into the directory") }
    if extras.paddingLength > 0 || localExtras.paddingLength > 0 {
      notes.padded += 1
      if notes.firstPadded == nil {
        notes.firstPadded =
          localExtras.paddingLength > 0
          ? (EntryName(bytes: rawName), "local header", localExtras.paddingLength)
          : (EntryName(bytes: rawName), "central-directory record", extras.paddingLength)
      }
    }
    // The headers are compared by the names they store; the expansion takes the name as
    // the writer's system meant it.
    let storedName = effectiveName(
      raw: rawName, unicode: extras.unicodePath, otherwise: localExtras.unicodePath)
    var name = storedName
    if flags & 0x800 == 0, name.bytes == rawName, let label = decoder.label,
      !rawName.allSatisfy({ $0 < 0x80 }), decoder.decodesUTF8 || name.string == nil
    {
      // No UTF-8 flag and, unless an encoding was named, not UTF-8 either (many tools write
      // UTF-8 without the flag, which is kept): by default the specification's CP437, in
      // which every byte is a character.
      guard let decoded = decoder.utf8(rawName) else {
        throw PackagingError(
          .invalidNameEncoding, "entry \(display) has a name that is not valid \(label)")
      }
      name = EntryName(bytes: decoded)
      notes.legacy += 1
      notes.legacyLabel = label
      if notes.firstLegacy == nil { notes.firstLegacy = (storedName, name) }
    }
    if let converted = windowsSeparatorsConverted(name, host: hostSystem) {
      notes.windows += 1
      if notes.firstWindows == nil { notes.firstWindows = converted }
      name = converted
    }
    let (kind, permissions) = kindAndPermissions(
      host: hostSystem, external: fixed.externalAttributes, name: name.bytes)
    // A folder's stated size governs no byte written (macOS tools gave `dir/` the size of
    // its HFS+ record, 68, with no data), so it is neither checked nor kept; its compressed
    // size still bounds its span, which the overlap and directory checks need.
    let isFolder = kind == .directory
    if isFolder { size = 0 }
    // Both headers must name the same entry once each is read with its Unicode path (a
    // header may carry the field alone, or hold the UTF-8 name itself). Without one, most
    // entries, that is the same stored bytes, compared in place.
    if let localName {
      let localStoredName = effectiveName(
        raw: localName, unicode: localExtras.unicodePath, otherwise: extras.unicodePath)
      if localStoredName != storedName {
        throw mismatch(localName != rawName ? "name \(localStoredName.display)" : "Unicode path")
      }
    }
    if localMethod != method { throw mismatch("compression method") }
    if localFlags & 0x41 != flags & 0x41 { throw mismatch("encryption flag") }
    var noOffset: UInt64?
    var noDisk: UInt32?
    if localSize == 0xFFFF_FFFF || localCompressed == 0xFFFF_FFFF {
      // A local ZIP64 field holds both sizes, whichever is the sentinel.
      if let zip64 = localExtras.zip64, zip64.count >= 16 {
        localSize = zip64.uint64(at: 0)
        localCompressed = zip64.uint64(at: 8)
      } else {
        try localExtras.resolveZip64(
          size: &localSize, compressedSize: &localCompressed, offset: &noOffset, disk: &noDisk,
          malformed: { _ in mismatch("ZIP64 sizes") })
      }
    }
    if localFlags & 0x8 == 0 {
      if localCRC != crc { throw mismatch("CRC-32") }
      if localCompressed != compressed { throw mismatch("compressed size") }
      if localSize != size && !isFolder { throw mismatch("size") }
    } else {
      // Sizes deferred to a data descriptor: the local fields are 0 (or already right).
      if localCRC != 0 && localCRC != crc { throw mismatch("CRC-32") }
      if localCompressed != 0 && localCompressed != compressed { throw mismatch("compressed size") }
      if localSize != 0 && localSize != size && !isFolder { throw mismatch("size") }
    }
    guard Int64(compressed) <= location.directoryStart - dataOffset else {
      throw malformed("entry \(display) has data running into the central directory")
    }
    if method == 0 && compressed != size && flags & 0x41 == 0 && !isFolder {
      throw entryMalformed("a stored size (\(compressed)) unlike its size (\(size))")
    }
    let dataEnd = dataOffset + Int64(compressed)
    let spanEnd = try descriptorEnd(
      after: dataEnd, flags: flags, crc: crc, zip64: localExtras.zip64 != nil, locals: locals,
      limit: location.directoryStart, mismatch: mismatch)

    let nameStart = names.count
    names.append(contentsOf: name.bytes)
    let time = extras.modificationTime ?? localExtras.modificationTime ?? dosToUnix(fixed.dosTime)
    // The checks above bound both distances: the data starts 30 bytes, a name and an extra
    // field after its header, and the span ends at most a descriptor after the data (which
    // ends before the directory, the span's limit).
    let entry = StoredEntry(
      compressedSize: Int64(compressed), uncompressedSize: Int64(size),
      localHeaderOffset: localStart, modificationTime: time, nameStart: nameStart,
      nameLength: UInt32(names.count - nameStart), permissions: permissions, crc32: crc,
      ownerID: UInt32(truncatingIfNeeded: extras.ownerID ?? localExtras.ownerID ?? 0),
      groupID: UInt32(truncatingIfNeeded: extras.groupID ?? localExtras.groupID ?? 0),
      dataDistance: UInt32(dataOffset - localStart), method: method, flags: flags, kind: kind,
      descriptorLength: UInt8(spanEnd - dataEnd))
    return (entry, recordLength)
  }

  /// The name a header gives an entry: the Info-ZIP Unicode path (0x7075) when its CRC-32
  /// matches the header's stored name (as unzip and libarchive require), taken from the
  /// header itself or else from the other header, else the stored name.
  private static func effectiveName(
    raw: [UInt8], unicode: (nameCRC: UInt32, path: [UInt8])?,
    otherwise other: (nameCRC: UInt32, path: [UInt8])?
  ) -> EntryName {
    guard unicode != nil || other != nil else { return EntryName(bytes: raw) }
    let crc = raw.withUnsafeBytes { LibDeflate.crc32(0, $0) }
    for field in [unicode, other] {
      if let field, field.nameCRC == crc { return EntryName(bytes: field.path) }
    }
    return EntryName(bytes: raw)
  }

  /// A name written on MS-DOS or Windows (host 0 FAT, 11 NTFS, 14 VFAT) with `\` as its only
  /// separator, with `/` instead, as unzip and bsdtar read it; `nil` for any other name.
  ///
  /// A name that has a `/` as well keeps its `\` as a character (bsdtar keeps it so), which
  /// the expansion refuses; the converted name meets every rule a name meets (`..`, an
  /// absolute name, a drive letter).
  private static func windowsSeparatorsConverted(_ name: EntryName, host: UInt8) -> EntryName? {
    let backslash = UInt8(ascii: "\\")
    let slash = UInt8(ascii: "/")
    guard host == 0 || host == 11 || host == 14, name.bytes.contains(backslash),
      !name.bytes.contains(slash)
    else { return nil }
    return EntryName(bytes: name.bytes.map { $0 == backslash ? slash : $0 })
  }

  /// Where an entry's span ends.
  ///
  /// After its data, and after its data descriptor when the sizes were deferred to one
  /// that is there. A descriptor with a signature must agree.
  private static func descriptorEnd(
    after dataEnd: Int64, flags: UInt16, crc: UInt32, zip64: Bool, locals: ArchiveFileWindow,
    limit: Int64, mismatch: (String) -> PackagingError
  ) throws -> Int64 {
    guard flags & 0x8 != 0, dataEnd + 12 <= limit,
      let head = try locals.bytes(at: dataEnd, count: 8)
    else { return dataEnd }
    let sizes: Int64 = zip64 ? 16 : 8
    if head.uint32(at: head.startIndex) == descriptorSignature {
      if head.uint32(at: head.startIndex + 4) != crc { throw mismatch("data descriptor CRC-32") }
      return min(limit, dataEnd + 8 + sizes)
    }
    if head.uint32(at: head.startIndex) == crc { return min(limit, dataEnd + 4 + sizes) }
    return dataEnd
  }

  /// An entry's kind and permission bits, as libarchive derives them.
  ///
  /// The Unix mode of a Unix (or macOS) host, the DOS attributes of an MS-DOS host, else a
  /// plain file; a name ending in `/` is a folder. Unlike libarchive, a FIFO stays a FIFO (which the
  /// expansion refuses, as it refuses devices) rather than becoming a file.
  private static func kindAndPermissions(host: UInt8, external: UInt32, name: [UInt8])
    -> (ArchiveEntryInfo.Kind, UInt32)
  {
    var mode: UInt32
    switch host {
    case 3, 19:
      mode = external >> 16
    case 0:
      mode = external & 0x10 != 0 ? 0o040775 : 0o100664
      if external & 0x01 != 0 { mode &= ~0o222 }
    default:
      mode = 0
    }
    if mode == 0 { mode = 0o664 }
    var kind: ArchiveEntryInfo.Kind
    switch mode & 0o170000 {
    case 0o040000: kind = .directory
    case 0o120000: kind = .symbolicLink
    case 0o020000: kind = .characterDevice
    case 0o060000: kind = .blockDevice
    case 0o140000: kind = .socket
    case 0o010000: kind = .fifo
    default: kind = .file
    }
    if kind != .directory && name.last == UInt8(ascii: "/") {
      kind = .directory
      mode |= 0o111
    }
    return (kind, mode & 0o7777)
  }

  /// A DOS date and time read as local time, as libarchive and unzip read it.
  private static func dosToUnix(_ value: UInt32) -> Int64 {
    var parts = tm()
    parts.tm_year = Int32((value >> 25) & 0x7F) + 80
    parts.tm_mon = Int32((value >> 21) & 0x0F) - 1
    parts.tm_mday = Int32((value >> 16) & 0x1F)
    parts.tm_hour = Int32((value >> 11) & 0x1F)
    parts.tm_min = Int32((value >> 5) & 0x3F)
    parts.tm_sec = Int32((value << 1) & 0x3E)
    parts.tm_isdst = -1
    return Int64(mktime(&parts))
  }

  // MARK: Overlaps

  /// Refuses entries whose `[local header, end of data)` spans overlap (David Fifield's
  /// non-recursive zip bomb reuses one stretch of compressed data for many entries).
  private func checkOverlaps() throws {
    let order = table.indices.sorted { table[$0].localHeaderOffset < table[$1].localHeaderOffset }
    for (earlier, later) in zip(order, order.dropFirst())
    where table[later].localHeaderOffset < table[earlier].spanEnd {
      throw PackagingError(
        .overlappingEntries,
        "entries \(entry(at: earlier).name.display) and \(entry(at: later).name.display) share compressed data (a zip bomb's overlapping entries)"
      )
    }
  }
}
