/// A ``ZipArchive`` walked in central-directory order, one ``ZipEntryReader`` at a time.
///
/// A symbolic link's target is its data: it is read (at most
/// ``ExpansionLedger/maxLinkTargetLength`` bytes) when the entry is reached, so
/// the link can be judged before anything is created.
final class ZipEntrySource: ArchiveEntrySource {
  /// The archive.
  let archive: ZipArchive
  private var index = -1
  /// The current entry, when it is a regular file whose data is still to be read.
  private(set) var currentFile: ZipEntry?
  private var reader: ZipEntryReader?
  private var consumedBefore: Int64 = 0
  private var offset: Int64 = 0

  /// Walks a checked archive.
  ///
  /// - Parameter archive: The archive.
  init(_ archive: ZipArchive) { self.archive = archive }

  var formatDescription: String { archive.location.isZip64 ? "ZIP64" : "ZIP" }
  var inputSize: Int64? { archive.file.size }
  var warnings: [ArchiveWarning] { archive.warnings }
  var bytesConsumed: Int64 { consumedBefore + (reader?.compressedBytesRead ?? 0) }
  /// The compressed bytes of every entry reached so far, the current one whole: an
  /// entry's data counts from its start, so a run of zeros early in a file does not
  /// look like a bomb before the rest of its compressed bytes are read.
  var distinctBytesConsumed: Int64 { consumedBefore + (currentFile?.compressedSize ?? 0) }

  func nextEntry() throws -> SourceEntry? {
    consumedBefore += currentFile?.compressedSize ?? 0
    currentFile = nil
    reader = nil
    index += 1
    guard index < archive.entryCount else { return nil }
    let entry = archive.entry(at: index)
    var info = entry.info
    if entry.kind == .symbolicLink && !entry.isEncrypted {
      info.linkTarget = EntryName(bytes: try linkTarget(of: entry))
      consumedBefore += entry.compressedSize
    } else if entry.kind == .file && !entry.isEncrypted {
      // Its reader opens at the first block, on this thread, unless a parallel
      // extraction reads the file on a worker of its own.
      currentFile = entry
      offset = 0
    }
    return SourceEntry(
      info: info, isEncrypted: entry.isEncrypted, compressedSize: entry.compressedSize)
  }

  func readBlock(of name: EntryName) throws -> (bytes: UnsafeRawBufferPointer, offset: Int64)? {
    if reader == nil, let currentFile { reader = try archive.reader(for: currentFile) }
    guard let reader, let chunk = try reader.next() else { return nil }
    defer { offset += Int64(chunk.count) }
    return (chunk, offset)
  }

  func finish() throws {}

  /// A symbolic link's target, read whole from its (small) data.
  private func linkTarget(of entry: ZipEntry) throws -> [UInt8] {
    guard entry.uncompressedSize <= Int64(ExpansionLedger.maxLinkTargetLength) else {
      throw PackagingError(
        .nameTooLong,
        "symbolic link \(entry.name.display) has a target longer than \(ExpansionLedger.maxLinkTargetLength) bytes"
      )
    }
    let reader = try archive.reader(for: entry)
    var target: [UInt8] = []
    while let chunk = try reader.next() { target.append(contentsOf: chunk) }
    return target
  }
}
