/// An archive of any format but zip, read entry by entry by libarchive.
///
/// Tar (plain or under any number of compression layers), cpio, 7-Zip, ISO 9660, xar,
/// RAR, and more.
///
/// The opener (``ArchiveOpener``) has already peeled the compression: the
/// handle here reads the format only, from decoded bytes or, for an
/// uncompressed file, from the file itself with seeks (7-Zip and ISO 9660
/// need them). ``finish()`` reads the decoded stream to its end, so every
/// layer's trailer and checksum is checked (libarchive's tar reader stops
/// at the end-of-archive blocks, before a gzip, xz or zstd trailer).
final class LibArchiveSource: ArchiveEntrySource {
  /// The archive's name for messages.
  let name: String
  let inputSize: Int64?
  private let handle: ArchiveReadHandle
  private let entry: ArchiveEntryHandle
  private let fileInput: FileInput?
  private let base: FileByteSource?
  private let decoded: (any ByteSource)?
  private let layers: [CompressionFilter]
  private let scanner: TarHeaderScanner?
  private let inflaters: [InflateByteSource]
  /// Whether the current entry holds no data to read: anything but a file, or a file of
  /// size 0.
  private var currentHoldsNoData = false

  /// Reads a file in place, seeking as the format needs.
  ///
  /// - Parameters:
  ///   - input: The file.
  ///   - name: Its name for messages.
  ///   - size: Its size.
  /// - Throws: ``PackagingError`` (`corrupt-archive` when no format matches).
  init(file input: FileInput, name: String, size: Int64) throws {
    self.name = name
    inputSize = size
    fileInput = input
    base = nil
    decoded = nil
    layers = []
    scanner = nil
    inflaters = []
    handle = try ArchiveReadHandle(name: name, formats: .archives)
    entry = try ArchiveEntryHandle()
    try Self.recognized(name) { try handle.open(input) }
  }

  /// Reads decoded bytes front to back.
  ///
  /// - Parameters:
  ///   - decoded: The bytes the format is read from (the last compression layer's output,
  ///     or the file itself).
  ///   - base: The file or pipe underneath, which counts the bytes consumed.
  ///   - layers: The compressions peeled, outermost first.
  ///   - scanner: Shown every byte, to refuse what libarchive hides (a tar).
  ///   - inflaters: The gzip layers' decoders, whose trailing bytes become warnings.
  ///   - name: The archive's name for messages.
  ///   - size: The file's size, when known.
  /// - Throws: ``PackagingError`` (`corrupt-archive` when no format matches).
  init(
    decoded: any ByteSource, base: FileByteSource, layers: [CompressionFilter],
    scanner: TarHeaderScanner?, inflaters: [InflateByteSource] = [], name: String, size: Int64?
  ) throws {
    self.inflaters = inflaters
    self.name = name
    inputSize = size
    fileInput = nil
    self.base = base
    self.decoded = decoded
    self.layers = layers
    self.scanner = scanner
    handle = try ArchiveReadHandle(name: name, formats: .archives)
    entry = try ArchiveEntryHandle()
    let skipper: ((Int64) throws -> Int64)? =
      layers.isEmpty && base.canSkip ? { try base.skip($0) } : nil
    try Self.recognized(name) {
      try handle.open(ByteSourceInput(decoded, observer: scanner, skipper: skipper))
    }
  }

  var warnings: [ArchiveWarning] {
    inflaters.filter { $0.trailingBytes > 0 }.map { inflater in
      ArchiveWarning(
        code: "gzip-trailing-data",
        message:
          "'\(name)': \(inflater.trailingBytes) bytes after the last gzip member are not a gzip member and were ignored, as gzip ignores them"
      )
    }
  }

  var formatDescription: String {
    ([handle.formatName] + layers.reversed().map(\.rawValue)).joined(separator: ", ")
  }

  var bytesConsumed: Int64 { fileInput?.bytesRead ?? base?.bytesRead ?? 0 }
  var distinctBytesConsumed: Int64 { fileInput?.furthestOffset ?? base?.bytesRead ?? 0 }

  func nextEntry() throws -> SourceEntry? {
    let more = try corruption(during: "reading the header after the last good entry") {
      try handle.nextHeader(into: entry)
    }
    guard more else { return nil }
    var info = entry.info
    currentHoldsNoData = info.kind != .file || info.size == 0
    if let scanner, scanner.isActive {
      if !handle.isTar {
        scanner.stop()
      } else {
        let recorded = try scanner.checkHeaders(
          from: handle.headerPosition, to: handle.consumedPosition)
        scanner.discard(before: handle.consumedPosition)
        if let recorded { Self.keepRecordedNames(recorded, in: &info) }
      }
    }
    // zisofs stores an all-zero block as nothing, and libarchive hands over the blocks that
    // hold data: a file whose last blocks are zeros ends early, the rest a hole bsdtar
    // fills to the file's size, as the expansion does for a sparse entry.
    let hasHoles = entry.isSparse || (handle.isISO9660 && info.kind == .file)
    return SourceEntry(info: info, isSparse: hasHoles, isEncrypted: entry.isEncrypted)
  }

  /// Puts the names a tar's headers record in place of libarchive's.
  ///
  /// Only when they are the same names up to Unicode normalisation: libarchive composes
  /// names to NFC in a UTF-8 locale, so `cafe\u{301}.txt` (as macOS writes it) and `caf\u{E9}.txt`, two files,
  /// would reach the file system as one name. Names that differ otherwise are left as
  /// libarchive gives them.
  private static func keepRecordedNames(
    _ recorded: TarHeaderScanner.RecordedNames, in info: inout ArchiveEntryInfo
  ) {
    // String's `==` is canonical equivalence: composed and decomposed spellings compare
    // equal, so the names are compared as text (without a folder's trailing slashes).
    func text(_ bytes: [UInt8]) -> String {
      var text = String(decoding: bytes, as: UTF8.self)
      while text.hasSuffix("/") { text.removeLast() }
      return text
    }
    if let path = recorded.path, path != info.name.bytes,
      text(path) == text(info.name.bytes)
    {
      info.name = EntryName(bytes: path)
    }
    if let link = recorded.linkPath, let target = info.linkTarget, link != target.bytes,
      text(link) == text(target.bytes)
    {
      info.linkTarget = EntryName(bytes: link)
    }
  }

  func readBlock(of name: EntryName) throws -> (bytes: UnsafeRawBufferPointer, offset: Int64)? {
    // Only a file of some size holds data, and bsdtar asks for no other's: RAR 5's reader
    // fails when asked for a folder's, or a link's to a folder ("Can't decompress an entry
    // marked as a directory"), ISO 9660's for an empty zisofs file's; the next header
    // skips whatever was stored.
    if currentHoldsNoData { return nil }
    let block = try corruption(during: "reading entry \(name.display)") {
      try handle.readBlock(entryName: name.display)
    }
    scanner?.discard(before: handle.consumedPosition)
    return block
  }

  func verifyData(of entry: SourceEntry) throws {
    guard handle.isTar, entry.info.kind == .file, let size = entry.info.size, size > 0 else {
      return
    }
    // A file in place: where the data would end says enough, no byte of it read.
    if layers.isEmpty, let inputSize, !entry.isSparse {
      let end = handle.consumedPosition + size
      guard end <= inputSize else {
        throw PackagingError(
          .corruptArchive,
          "'\(name)': the data of entry \(entry.info.name.display) runs past the end of the archive (it needs \(end) bytes, the file has \(inputSize))"
        )
      }
      return
    }
    // A pipe or a compressed stream: only reading through finds the end.
    var end: Int64 = 0
    while let block = try readBlock(of: entry.info.name) {
      end = max(end, block.offset + Int64(block.bytes.count))
    }
    guard entry.isSparse || end >= size else {
      throw PackagingError(
        .corruptArchive,
        "'\(name)': the data of entry \(entry.info.name.display) runs past the end of the archive (it has \(end) of its \(size) bytes)"
      )
    }
  }

  /// The most decoded bytes read after the archive's end to reach its compression's end.
  ///
  /// Tape blocking pads a tar to its record size (10 KiB by default, 1 MiB at GNU tar's
  /// largest common blocking); a stream that goes on past this is no padding, and reading
  /// it to its end could take forever.
  static let maxTrailingBytes: Int64 = 1 << 20

  func finish() throws {
    // A plain tar ends at its end-of-archive blocks, as bsdtar ends there: what follows
    // on a pipe is never read.
    guard let decoded, !layers.isEmpty else { return }
    let endless = PackagingError(
      .corruptArchive,
      "'\(name)': the compressed stream goes on for more than \(Self.maxTrailingBytes) bytes after the archive's end, so its end and checksum were not reached"
    )
    var trailing: Int64 = 0
    try corruption(during: "reading the end of the compressed stream") {
      while let chunk = try decoded.next() {
        trailing += Int64(chunk.count)
        if trailing > Self.maxTrailingBytes { throw endless }
      }
    }
  }

  /// The formats named when a file is none of them.
  static let readableFormats =
    "zip, tar (plain or compressed with gzip, bzip2, xz, zstd or lz4), cpio, RPM, 7-Zip, ISO 9660, xar, ar, RAR and LHA"

  /// Opens an archive, saying so in words when the file is no archive at all.
  private static func recognized(_ name: String, _ body: () throws -> Void) throws {
    do {
      try corruption(name, during: "opening the archive", body)
    } catch let error as PackagingError {
      guard let failure = error.cause as? LibArchiveFailure, failure.isUnrecognizedFormat else {
        throw error
      }
      throw PackagingError(
        .notAnArchive, "'\(name)' is not an archive Folio can read (it reads \(readableFormats))")
    }
  }

  /// Turns libarchive's failures while reading into `corrupt-archive`, naming where.
  private func corruption<T>(during what: String, _ body: () throws -> T) throws -> T {
    try Self.corruption(name, during: what, body)
  }

  private static func corruption<T>(
    _ name: String, during what: String, _ body: () throws -> T
  ) throws -> T {
    do {
      return try body()
    } catch let error as PackagingError where error.code.isLibArchiveFailure {
      let failure = error.cause as? LibArchiveFailure
      throw PackagingError(
        .corruptArchive, "'\(name)': \(what): \(failure?.message ?? error.message)",
        cause: failure ?? error)
    }
  }
}
