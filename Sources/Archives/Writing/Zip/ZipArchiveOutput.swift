import FolioSystem
import Glibc

/// The byte stream of a zip archive being written: entries in order, then the
/// central directory and the end records.
///
/// Writes go through one buffer of ``bufferSize`` bytes, so many small entries
/// cost few `write` calls. A local header written before its entry's CRC-32
/// and compressed size are known is corrected in place afterwards
/// (``patch(_:at:)``): in the buffer while it is there, with `pwrite` after.
/// The central directory grows with the entries; past
/// ``centralDirectoryMemoryLimit`` bytes it moves to an unlinked temporary file
/// beside the archive, so memory stays bounded however many entries there are.
///
/// Bytes of an earlier archive (`pack --update`'s reused entries) are copied file to
/// file (``appendCopy(of:at:count:entry:)``): consecutive stretches of it gather into one
/// copy, made when other bytes follow or a ``WriteBehind/stretch`` has gathered.
final class ZipArchiveOutput {
  /// The write buffer's size.
  static let bufferSize = 256 * 1024
  /// The most central-directory bytes kept in memory: a package of tens of thousands of
  /// files keeps its whole directory here.
  ///
  /// Spilling writes the records into the kernel's cache, a page at a time, and copies them
  /// back at the end, which a pack that reuses every entry spends much of its writing
  /// thread on. The array is reserved at its largest at once, so it never doubles (and
  /// copies) on the way; its pages cost memory only as records fill them.
  static let centralDirectoryMemoryLimit = 4 << 20
  /// The largest central-directory record: its fixed part, a name and an extra field of
  /// 65,535 bytes each (Folio writes no comment).
  ///
  /// Reserved beside the limit, so the records in memory never move.
  static let largestCentralRecord = 46 + 2 * 65_535

  private let descriptor: Int32
  /// Appends to the archive, starting its disk writing a stretch at a time.
  private var writeBehind: WriteBehind
  private let archiveName: String
  private let spillFolder: String
  private let buffer: UnsafeMutableRawBufferPointer
  private var buffered = 0
  /// The archive offset of the buffer's first byte.
  private var flushedOffset: UInt64 = 0
  /// Grows by a record every entry, on the writing thread, one access at a time: not checked
  /// for overlapping access at run time.
  @exclusivity(unchecked) private var centralDirectory: [UInt8] = []
  private var spill: Int32 = -1
  private var spilledBytes: UInt64 = 0
  /// The central-directory records written so far.
  private(set) var entryCount: UInt64 = 0
  /// Bytes of another file to copy after the buffer's (which is then empty), gathered
  /// while each stretch starts where the last ended.
  ///
  /// Extended by every reused entry, on the writing thread, one access at a time: not
  /// checked for overlapping access at run time.
  @exclusivity(unchecked) private var pendingCopy: PendingCopy?
  /// Whether gathered copies are made on a thread of their own (until ``finish()``).
  private var copiesInBackground: Bool
  /// That thread's copies, from the first one.
  private var copier: BackgroundCopier?

  /// Creates the output.
  ///
  /// - Parameters:
  ///   - descriptor: The archive file, open for writing at offset 0; never closed here.
  ///   - archiveName: The archive's path, for messages.
  ///   - spillFolder: Where a large central directory waits (the archive's folder).
  init(
    descriptor: Int32, archiveName: String, spillFolder: String, copiesInBackground: Bool = false
  ) {
    self.descriptor = descriptor
    self.copiesInBackground = copiesInBackground
    writeBehind = WriteBehind(descriptor: descriptor)
    self.archiveName = archiveName
    self.spillFolder = spillFolder
    buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
    // Untouched pages cost nothing: a small archive's directory uses the first few.
    centralDirectory.reserveCapacity(Self.centralDirectoryMemoryLimit + Self.largestCentralRecord)
  }

  deinit {
    copier?.stop()
    buffer.deallocate()
    if spill >= 0 { close(spill) }
  }

  /// The archive offset of the next byte.
  var offset: UInt64 { flushedOffset + UInt64(buffered) + UInt64(pendingCopy?.count ?? 0) }

  /// Appends bytes of another file, copied when other bytes follow, at the end, or once a
  /// ``WriteBehind/stretch`` of them has gathered.
  ///
  /// - Parameters:
  ///   - file: The file, which must keep these bytes until the archive is finished.
  ///   - position: Where they start in it.
  ///   - count: How many.
  ///   - entry: The entry they belong to, for messages.
  /// - Throws: ``PackagingError`` when the buffer or an earlier copy cannot be written.
  func appendCopy(of file: ArchiveFile, at position: Int64, count: Int64, entry: String) throws {
    guard count > 0 else { return }
    // Extended in place: a copy of the pending stretch retained its file and both names.
    if pendingCopy?.continues(in: file, at: position) ?? false {
      pendingCopy!.count += count
      pendingCopy!.lastEntry = entry
    } else {
      try flush()
      pendingCopy = PendingCopy(
        file: file, offset: position, count: count, firstEntry: entry, lastEntry: entry)
    }
    if pendingCopy!.count >= Int64(WriteBehind.stretch) {
      try copyPending()
    }
  }

  /// Appends bytes to the archive.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``PackagingError`` when the disk refuses them.
  func append(_ bytes: UnsafeRawBufferPointer) throws {
    guard bytes.count > 0 else { return }
    try copyPending()
    if buffered + bytes.count > buffer.count {
      try flush()
      if bytes.count >= buffer.count {
        try writeOut(bytes)
        flushedOffset += UInt64(bytes.count)
        return
      }
    }
    (buffer.baseAddress! + buffered).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    buffered += bytes.count
  }

  /// Appends bytes to the archive.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``PackagingError`` when the disk refuses them.
  func append(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try append($0) }
  }

  /// Overwrites bytes written earlier (a local header's CRC-32 and sizes).
  ///
  /// - Parameters:
  ///   - bytes: The new bytes.
  ///   - position: Their archive offset; they must lie within what was written.
  /// - Throws: ``PackagingError`` when the disk refuses them.
  func patch(_ bytes: [UInt8], at position: UInt64) throws {
    precondition(position + UInt64(bytes.count) <= offset, "patching past the end")
    try copyPending()
    // The bytes before `flushedOffset` are on disk, the rest still in the buffer.
    let onDisk =
      position >= flushedOffset ? 0 : Int(min(UInt64(bytes.count), flushedOffset - position))
    if onDisk > 0 {
      let failure = bytes[0..<onDisk].withUnsafeBytes {
        SystemCall.writeAll(descriptor, $0, at: Int64(position))
      }
      if failure != 0 {
        throw PackagingError.system("cannot write '\(archiveName)'", errno: failure)
      }
    }
    for index in onDisk..<bytes.count {
      buffer[Int(position + UInt64(index) - flushedOffset)] = bytes[index]
    }
  }

  /// Records an entry for the central directory.
  ///
  /// - Parameter record: The entry, with its final CRC-32, sizes and offset.
  /// - Throws: ``PackagingError`` when the spill file cannot be written.
  func addCentralRecord(_ record: ZipEntryRecord) throws {
    record.withCentralHeader { centralDirectory.append(contentsOf: $0) }
    entryCount += 1
    if centralDirectory.count >= Self.centralDirectoryMemoryLimit { try spillCentralDirectory() }
  }

  /// Records an entry for the central directory from a record built earlier with offset 0,
  /// putting the local header's offset into its 32-bit field.
  ///
  /// - Parameters:
  ///   - record: The central-directory record (``ZipBatch/ReusedHeaders``).
  ///   - localHeaderOffset: Where the entry's local header starts.
  /// - Throws: ``PackagingError`` when the spill file cannot be written.
  func addCentralRecord(_ record: UnsafeBufferPointer<UInt8>, localHeaderOffset: UInt32) throws {
    let start = centralDirectory.count
    // Typed bytes: an array appends them in one copy, raw ones one byte at a time.
    centralDirectory.append(contentsOf: record)
    centralDirectory.withUnsafeMutableBytes {
      $0.storeBytes(
        of: localHeaderOffset.littleEndian,
        toByteOffset: start + ZipBatch.ReusedHeaders.centralOffsetPosition, as: UInt32.self)
    }
    entryCount += 1
    if centralDirectory.count >= Self.centralDirectoryMemoryLimit { try spillCentralDirectory() }
  }

  /// Writes the central directory and the end records, and flushes the buffer.
  ///
  /// - Throws: ``PackagingError`` when the disk refuses the bytes.
  func finish() throws {
    // The copier's copies are waited for and the last one is made here, before the
    // directory is written: two writers of one file take turns at its lock, and the two
    // writes side by side took longer than one after the other.
    try copier?.finish()
    copier = nil
    copiesInBackground = false
    // The entries' last bytes go to disk while the directory is written.
    writeBehind.startPending()
    let start = offset
    if spill >= 0 {
      try flush()
      try copySpill()
    }
    try append(centralDirectory)
    let size = offset - start
    let end = offset
    let overflow = ZipEntryRecord.overflow32
    let needsZip64 = entryCount >= 0xFFFF || size >= overflow || start >= overflow
    let bytes = LittleEndianBytes.array(capacity: 98) { bytes in
      if needsZip64 {
        bytes.append(UInt32(0x0606_4B50))  // ZIP64 end of central directory record
        bytes.append(UInt64(44))
        bytes.append(ZipEntryRecord.versionMadeBy)
        bytes.append(UInt16(45))
        bytes.append(UInt32(0))
        bytes.append(UInt32(0))
        bytes.append(entryCount)
        bytes.append(entryCount)
        bytes.append(size)
        bytes.append(start)
        bytes.append(UInt32(0x0706_4B50))  // its locator
        bytes.append(UInt32(0))
        bytes.append(end)
        bytes.append(UInt32(1))
      }
      let count16 = UInt16(min(entryCount, 0xFFFF))
      bytes.append(UInt32(0x0605_4B50))  // end of central directory record
      bytes.append(UInt16(0))
      bytes.append(UInt16(0))
      bytes.append(count16)
      bytes.append(count16)
      bytes.append(UInt32(min(size, overflow)))
      bytes.append(UInt32(min(start, overflow)))
      bytes.append(UInt16(0))  // comment length
    }
    try append(bytes)
    try flush()
  }

  /// Writes the buffer out.
  ///
  /// - Throws: ``PackagingError`` when the disk refuses the bytes.
  func flush() throws {
    try copyPending()
    guard buffered > 0 else { return }
    try writeOut(UnsafeRawBufferPointer(rebasing: buffer[0..<buffered]))
    flushedOffset += UInt64(buffered)
    buffered = 0
  }

  /// Makes the gathered copy, after the buffer's bytes: here, or on the copier's thread at
  /// its place in the archive while later bytes are written past it.
  private func copyPending() throws {
    guard let pending = pendingCopy.take() else { return }
    assert(buffered == 0, "a copy gathered after buffered bytes")
    if copiesInBackground && copier == nil { copier = BackgroundCopier() }
    guard let copier else {
      let copied = try pending.file.copyBytes(
        at: pending.offset, count: pending.count, to: descriptor, targetName: archiveName)
      guard copied == pending.count else { throw Self.shrank(pending) }
      writeBehind.wrote(Int(copied))
      flushedOffset += UInt64(copied)
      return
    }
    try copier.throwFailure()
    let target = Int64(flushedOffset)
    flushedOffset += UInt64(pending.count)
    // The next bytes go past the copy's place, a hole until the copier fills it.
    guard lseek(descriptor, off_t(flushedOffset), SEEK_SET) >= 0 else {
      throw PackagingError.system("cannot write '\(archiveName)'", errno: errno)
    }
    writeBehind.moved(to: Int64(flushedOffset))
    let (descriptor, archiveName) = (self.descriptor, self.archiveName)
    copier.submit {
      let copied = try pending.file.copyBytes(
        at: pending.offset, count: pending.count, to: descriptor, targetOffset: target,
        targetName: archiveName)
      guard copied == pending.count else { throw Self.shrank(pending) }
      LinuxCalls.startWriteback(descriptor, offset: target, count: pending.count)
    }
  }

  /// Stops the copies not yet made and waits for the one under way: before the archive's
  /// file is discarded.
  func abandon() {
    copier?.stop()
  }

  /// Why a copy came short: the earlier archive shrank, naming the entries it held.
  private static func shrank(_ pending: PendingCopy) -> PackagingError {
    let entries =
      pending.firstEntry == pending.lastEntry
      ? "entry '\(pending.firstEntry)'"
      : "entries '\(pending.firstEntry)' to '\(pending.lastEntry)'"
    return PackagingError(
      .corruptArchive,
      "'\(pending.file.name)' ended before the data of \(entries) (it shrank while they were copied)"
    )
  }

  private func spillCentralDirectory() throws {
    if spill < 0 {
      var template = Array((spillFolder + "/.folio-zip-directory-XXXXXX").utf8CString)
      let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
      guard made >= 0 else {
        throw PackagingError.system(
          "cannot create a temporary file in '\(spillFolder)' for the zip directory", errno: errno)
      }
      // Unlinked at once: nothing is left behind, whatever happens to this process.
      template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
      spill = made
    }
    let failure = centralDirectory.withUnsafeBytes { SystemCall.writeAll(spill, $0) }
    if failure != 0 {
      throw PackagingError.system("cannot write the zip directory's temporary file", errno: failure)
    }
    spilledBytes += UInt64(centralDirectory.count)
    centralDirectory.removeAll(keepingCapacity: true)
  }

  private func copySpill() throws {
    var position: off_t = 0
    while UInt64(position) < spilledBytes {
      let count = SystemCall.retryingInterrupts {
        pread(spill, buffer.baseAddress!, buffer.count, position)
      }
      if count <= 0 {
        throw PackagingError.system(
          "cannot read the zip directory's temporary file", errno: count < 0 ? errno : EIO)
      }
      try writeOut(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      flushedOffset += UInt64(count)
      position += off_t(count)
    }
  }

  /// Writes bytes at the archive's end.
  private func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
    let failure = writeBehind.append(bytes)
    if failure != 0 {
      throw PackagingError.system("cannot write '\(archiveName)'", errno: failure)
    }
  }
}

extension ZipArchiveOutput {
  /// Bytes of another file to copy into the archive, and the entries they hold.
  private struct PendingCopy: Sendable {
    let file: ArchiveFile
    let offset: Int64
    var count: Int64
    let firstEntry: String
    var lastEntry: String

    /// Whether bytes of `other` at `position` follow these.
    func continues(in other: ArchiveFile, at position: Int64) -> Bool {
      file === other && offset + count == position
    }
  }
}
