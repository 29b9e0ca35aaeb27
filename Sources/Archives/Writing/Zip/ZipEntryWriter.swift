import FoundationEssentials
import Glibc
import ProgressReporting
import UniformTypes

/// Folio's own zip writer: entries compressed in parallel, written in order.
///
/// The producing thread (the caller) hands entries over one by one. Small
/// files (up to ``chunkSize``) are gathered into ``ZipBatch``es of up to
/// ``batchEntryLimit`` entries that a worker opens, reads and deflates whole
/// with libdeflate; a larger file is cut into ``chunkSize`` chunks, each a
/// batch of its own, deflated by zlib primed with the 32 KiB before it and
/// joined into one deflate stream. The caller's thread writes finished
/// batches out strictly in the order the entries were added, so the archive's
/// bytes are the same whatever the number of jobs.
///
/// Memory: `capacity × ZipBatch.bufferBytes` for the batches (capacity is
/// `2 × jobs + 1`, or 1 with one job: about 290 KiB each), one compressor
/// set per worker (about 1 MiB), the output buffer (256 KiB) and at most
/// 4 MiB of central directory in memory, whatever the archive's size.
///
/// Every local header carries the entry's real CRC-32 and sizes: a chunked
/// entry's header is written before its data and corrected once the last
/// chunk is out, which needs an output that can be written at an offset (a
/// regular file).
final class ZipEntryWriter {
  /// The largest file deflated whole, and the size of a large file's chunks.
  static let chunkSize = 128 * 1024
  /// The most entries one batch carries.
  static let batchEntryLimit = 128

  private let output: ZipArchiveOutput
  private let settings: ZipBatch.Settings
  private let pool: WorkerPool<CompressionWorkspace>
  private let pipeline: OrderedPipeline<ZipBatch, CompressionWorkspace>
  private let progress: ProgressManager?
  /// The producer's own probe, for large files' store-or-deflate decision.
  private let probe: CompressibilityProbe
  private var current: ZipBatch?
  private var streaming: (record: ZipEntryRecord, name: String)?
  private var finished = false
  /// Where reused entries' data is read: their earlier archive in windows, which one read
  /// fills for many consecutive entries.
  private var reusedWindow: ArchiveFileWindow?
  /// The earlier archive whose entries ``addReusedFile(path:data:size:permissions:modificationTime:)``
  /// copies, set before the first of them.
  var earlierArchive: ZipArchive?

  /// The entries written so far.
  private(set) var entryCount = 0
  /// The file entries written stored rather than deflated.
  private(set) var storedEntryCount = 0
  /// The bytes of file data written so far (before compression).
  private(set) var dataByteCount: Int64 = 0

  /// Creates a writer and starts its workers.
  ///
  /// - Parameters:
  ///   - output: Where the archive's bytes go.
  ///   - level: The deflate level, 0 (store everything) to 9.
  ///   - compression: How file entries are compressed by default.
  ///   - registry: The registry that types file names (already-compressed content is stored).
  ///   - jobs: How many threads compress (1: the caller's thread does everything).
  ///   - progress: Where entries, files and bytes are reported as they are written.
  init(
    output: ZipArchiveOutput, level: Int, compression: EntryCompression, registry: TypeRegistry,
    jobs: Int, progress: ProgressManager?
  ) {
    self.output = output
    self.progress = progress
    settings = ZipBatch.Settings(
      level: level, compression: compression, chunkSize: Self.chunkSize,
      entryLimit: Self.batchEntryLimit)
    probe = CompressibilityProbe(registry: registry)
    let workspaceLevel = max(1, level)
    pool = WorkerPool(threads: jobs > 1 ? jobs : 0) {
      CompressionWorkspace(level: workspaceLevel, registry: registry)
    }
    pipeline = OrderedPipeline(pool: pool, capacity: jobs > 1 ? 2 * jobs + 1 : 1) {
      batch, workspace in batch.process(workspace)
    }
  }

  deinit {
    if !finished { abandon() }
  }

  // MARK: Adding entries

  /// Adds a folder entry.
  func addDirectory(path: String, permissions: UInt32, modificationTime: Int64) throws {
    try add(
      ZipBatch.Item(
        kind: .directory, path: path, permissions: permissions,
        modificationTime: modificationTime, size: 0))
  }

  /// Adds a symbolic link entry (its target is the entry's data, stored).
  func addSymbolicLink(path: String, target: String, permissions: UInt32, modificationTime: Int64)
    throws
  {
    let bytes = Array(target.utf8)
    try add(
      ZipBatch.Item(
        kind: .symbolicLink(target: bytes), path: path, permissions: permissions,
        modificationTime: modificationTime, size: Int64(bytes.count)))
  }

  /// Adds a regular file of `size` bytes.
  ///
  /// - Parameters:
  ///   - path: The entry's path.
  ///   - source: Where the bytes are.
  ///   - size: How many bytes the entry holds (the file's size when listed).
  ///   - permissions: Permission bits.
  ///   - modificationTime: Seconds since 1970, UTC.
  ///   - compression: Overrides the writer's compression for this entry.
  /// - Throws: ``PackagingError`` for an unreadable or changing file, or a write failure.
  func addFile(
    path: String, source: ZipFileSource, size: Int64, permissions: UInt32,
    modificationTime: Int64, compression: EntryCompression? = nil
  ) throws {
    let compression = compression ?? settings.compression
    if size <= Int64(Self.chunkSize) {
      try add(
        ZipBatch.Item(
          kind: .file(source, compression: compression), path: path, permissions: permissions,
          modificationTime: modificationTime, size: size))
      return
    }
    try submitCurrent()
    let file = try openLarge(path: path, source: source, size: size, compression: compression)
    var offset: Int64 = 0
    while offset < size {
      try checkCancellation()
      let length = Int(min(Int64(Self.chunkSize), size - offset))
      let batch = try nextBatch()
      batch.append(
        ZipBatch.Item(
          kind: .chunk(file, offset: offset, length: length), path: path,
          permissions: permissions, modificationTime: modificationTime, size: size))
      pipeline.submit(batch)
      offset += Int64(length)
    }
  }

  /// Adds a regular file whose compressed bytes are copied from an earlier archive.
  ///
  /// The entry is the one a fresh pack of the same bytes with the same settings writes:
  /// its headers are rebuilt here (the name, mode and time given, the earlier CRC-32,
  /// sizes and method), so only the data is copied.
  ///
  /// - Parameters:
  ///   - path: The entry's path.
  ///   - data: Where the bytes are in the earlier archive.
  ///   - size: The uncompressed size.
  ///   - permissions: Permission bits.
  ///   - modificationTime: Seconds since 1970, UTC.
  /// - Throws: A write failure, or the earlier archive's read failure.
  func addReusedFile(
    path: String, data: ZipReusedData, size: Int64, permissions: UInt32, modificationTime: Int64
  ) throws {
    try add(
      ZipBatch.Item(
        kind: .reused(data), path: path, permissions: permissions,
        modificationTime: modificationTime, size: size))
  }

  /// Writes out every entry added so far.
  ///
  /// - Throws: The first failure of any entry, in archive order, or a write failure.
  func flush() throws {
    try submitCurrent()
    try pipeline.drain(write)
  }

  /// Writes out every entry, then the central directory and the end records.
  ///
  /// - Throws: The first failure of any entry, in archive order, or a write failure.
  func finish() throws {
    do {
      try flush()
      try output.finish()
    } catch {
      abandon()
      throw error
    }
    finished = true
    pool.close()
    // Nothing more is copied from the earlier archive: its index, which the caller lets go
    // of once the new archive has replaced it, is then the last to hold it.
    earlierArchive = nil
    reusedWindow = nil
  }

  /// Stops: waits for the workers to let go of their batches and ends them.
  func abandon() {
    guard !finished else { return }
    finished = true
    pipeline.abandon()
    pool.close()
    output.abandon()
  }

  // MARK: Producing

  private func add(_ item: consuming ZipBatch.Item) throws {
    let input: Int64
    if case .reused = item.kind { input = 0 } else { input = item.size }
    // An entry with nothing to read (a reused one, a folder) costs less than a check:
    // those are checked a batch at a time.
    if input > 0 || current == nil { try checkCancellation() }
    if let current, current.hasRoom(forFileOf: input) {
      current.append(item)
      return
    }
    try submitCurrent()
    let batch = try nextBatch()
    batch.append(item)
    current = batch
  }

  private func submitCurrent() throws {
    guard let batch = current else { return }
    current = nil
    // A batch that reads no file (an update's reused entries, folders) only builds headers:
    // built here, where its items were made and will be written, rather than on a worker.
    if batch.readsFiles {
      pipeline.submit(batch)
    } else {
      pipeline.submit(batch) { $0.process(nil) }
    }
  }

  private func nextBatch() throws -> ZipBatch {
    let batch = try pipeline.nextWork(make: { ZipBatch(settings: settings) }, deliver: write)
    batch.reset()
    batch.earlierArchive = earlierArchive
    return batch
  }

  /// Opens a large file once for all its chunks and decides whether it is stored.
  private func openLarge(
    path: String, source: ZipFileSource, size: Int64, compression: EntryCompression
  ) throws -> ZipStreamedFile {
    switch source {
    case .memory(let data):
      let storing = data.withUnsafeBytes { bytes in
        storesLarge(
          path: path, compression: compression,
          firstChunk: UnsafeRawBufferPointer(rebasing: bytes.prefix(64 * 1024)), descriptor: nil,
          size: size)
      }
      return ZipStreamedFile(
        descriptor: -1, data: data, size: size, openedInfo: nil, displayPath: path,
        storing: storing)
    case .file:
      let (descriptor, info) = try source.open()
      let storing: Bool
      do {
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        let sample = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { sample.deallocate() }
        try ZipFileSource.read(
          descriptor, into: sample, at: 0, size: size, displayPath: source.displayPath)
        storing = storesLarge(
          path: path, compression: compression, firstChunk: UnsafeRawBufferPointer(sample),
          descriptor: descriptor, size: size)
      } catch {
        close(descriptor)
        throw error
      }
      return ZipStreamedFile(
        descriptor: descriptor, data: nil, size: size, openedInfo: info,
        displayPath: source.displayPath, storing: storing)
    }
  }

  private func storesLarge(
    path: String, compression: EntryCompression, firstChunk: UnsafeRawBufferPointer,
    descriptor: Int32?, size: Int64
  ) -> Bool {
    guard
      ZipBatch.stores(
        path: path, bytes: firstChunk, compression: compression, level: settings.level,
        probe: probe)
    else { return false }
    guard compression == .automatic, settings.level > 0, let descriptor else { return true }
    // A sample that looks random may open a file that is mostly text: look further in.
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if probe.isAlreadyCompressed(fileName: name) { return true }
    return probe.laterSamplesLookIncompressible(descriptor: descriptor, size: size)
  }

  // MARK: Writing out (the caller's thread, in order)

  private func write(_ batch: ZipBatch) throws {
    // Reused entries' bytes and entries are counted once per run of them: each count
    // tells every observer, which takes longer than copying a small entry.
    var reused = ReusedRun()
    try checkCancellation()
    let earlier = batch.earlierArchive
    try batch.withItemsAndHeaders { items, headers in
      for index in items.indices {
        if index == batch.failedIndex, let failure = batch.failure { throw failure }
        // A reused entry is read where it lies, field by field, rather than copied whole
        // (its path and kind retained and released) for the few fields written out.
        let slot = items.baseAddress! + index
        if case .reused(let data) = slot.pointee.kind {
          guard let earlier else { preconditionFailure("a reused entry with no earlier archive") }
          try writeReused(
            slot, data: data, headers: headers, earlier: earlier, run: &reused)
          continue
        }
        reportReused(&reused)
        let item = items[index]
        try checkCancellation()
        switch item.kind {
        case .directory:
          var record = ZipEntryRecord(item, name: item.path + "/", type: 0o040000)
          record.method = .stored
          try writeWhole(record, data: UnsafeRawBufferPointer(start: nil, count: 0))
          completeEntry()
        case .symbolicLink(let target):
          var record = ZipEntryRecord(item, name: item.path, type: 0o120000)
          record.crc32 = item.crc32
          record.size = UInt64(target.count)
          record.compressedSize = record.size
          try target.withUnsafeBytes { try writeWhole(record, data: $0) }
          completeEntry()
        case .file:
          progress?.startFile(item.path, size: item.size)
          var record = ZipEntryRecord(item, name: item.path, type: 0o100000)
          record.method = item.method
          record.crc32 = item.crc32
          record.size = UInt64(item.size)
          record.compressedSize = UInt64(item.dataRange.count)
          try writeWhole(record, data: data(of: item, in: batch))
          report(bytes: item.size)
          if item.method == .stored { storedEntryCount += 1 }
          progress?.completeFile(item.path)
          completeEntry()
        case .chunk(let file, let offset, let length):
          try writeChunk(item, file: file, offset: offset, length: length, batch: batch)
        case .reused:
          break  // written above
        }
      }
    }
    reportReused(&reused)
    // A batch waiting for reuse holds no earlier archive (``nextBatch()`` sets it again).
    batch.earlierArchive = nil
  }

  /// Reused entries written one after another, reported together.
  private struct ReusedRun {
    var entries = 0
    var bytes: Int64 = 0
    /// Files no observer was told of, the last of them ``lastFile``.
    var unannouncedFiles = 0
    var lastFile = ""
  }

  /// Counts a run of reused entries in one report.
  private func reportReused(_ run: inout ReusedRun) {
    guard run.entries > 0 else { return }
    dataByteCount += run.bytes
    entryCount += run.entries
    if let progress {
      progress.completeFiles(run.unannouncedFiles, lastPath: run.lastFile)
      progress.completedByteCount += UInt64(run.bytes)
      progress.complete(count: Int(run.bytes) + run.entries)
    }
    run = ReusedRun()
  }

  /// Writes a file whose data is copied from an earlier archive, with the headers a fresh
  /// pack would give it (a large file's local header sized as ``writeChunk`` sizes it),
  /// counted in `run`, which ``reportReused(_:)`` reports.
  private func writeReused(
    _ item: UnsafePointer<ZipBatch.Item>, data: ZipReusedData,
    headers: UnsafeBufferPointer<UInt8>, earlier: ZipArchive, run: inout ReusedRun
  ) throws {
    // Built by the batch's worker; a batch is written out only up to its first failure,
    // and every reused entry before it was prepared.
    guard let prepared = item.pointee.reusedHeaders
    else { preconditionFailure("a reused entry its batch did not prepare") }
    let path = item.pointee.path
    let size = item.pointee.size
    // Each file's start and end are events for observers; while none follows, the run's
    // files are counted at its end.
    let announced = progress?.followsFiles ?? false
    if announced { progress?.startFile(path, size: size) }
    let offset = output.offset
    // The earlier pack's header, when it is the one written here, goes with the data: a
    // run of such entries is one copy in the kernel.
    if prepared.sameLocalHeader {
      try output.appendCopy(
        of: earlier.file, at: data.localHeaderOffset,
        count: data.dataOffset - data.localHeaderOffset + data.compressedSize, entry: path)
    } else {
      try output.append(
        UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: headers[prepared.local])))
      try copyData(of: path, data: data, from: earlier.file)
    }
    if offset < ZipEntryRecord.overflow32 {
      try output.addCentralRecord(
        UnsafeBufferPointer(rebasing: headers[prepared.central]),
        localHeaderOffset: UInt32(offset))
    } else {
      // An offset past 32 bits takes a ZIP64 field: a record of another length, built here.
      var record = ZipEntryRecord(reusing: data, for: item.pointee, chunkSize: Self.chunkSize)
      record.localHeaderOffset = offset
      try output.addCentralRecord(record)
    }
    if data.method == .stored { storedEntryCount += 1 }
    run.entries += 1
    run.bytes += size
    if announced {
      progress?.completeFile(path)
    } else {
      run.unannouncedFiles += 1
      run.lastFile = path
    }
  }

  /// Copies a reused entry's data after a header written here: a small entry's through a
  /// window onto the earlier archive (one read for many entries, into the write buffer),
  /// a large one's file to file.
  private func copyData(of path: String, data: ZipReusedData, from file: ArchiveFile) throws {
    if data.compressedSize >= Int64(ArchiveFileWindow.size) {
      try output.appendCopy(of: file, at: data.dataOffset, count: data.compressedSize, entry: path)
      return
    }
    let window: ArchiveFileWindow
    if let current = reusedWindow, current.file === file {
      window = current
    } else {
      window = ArchiveFileWindow(file)
      reusedWindow = window
    }
    guard let bytes = try window.bytes(at: data.dataOffset, count: Int(data.compressedSize))
    else {
      throw PackagingError(
        .corruptArchive,
        "'\(file.name)': the data of entry '\(path)' ends before its \(data.compressedSize) bytes"
      )
    }
    try bytes.withUnsafeBytes { try output.append($0) }
  }

  private func writeChunk(
    _ item: ZipBatch.Item, file: ZipStreamedFile, offset: Int64, length: Int, batch: ZipBatch
  ) throws {
    if offset == 0 {
      progress?.startFile(item.path, size: item.size)
      var record = ZipEntryRecord(item, name: item.path, type: 0o100000)
      record.method = file.storing ? .stored : .deflated
      record.size = UInt64(file.size)
      record.localUsesZip64 = Self.largestData(of: file) >= ZipEntryRecord.overflow32
      record.localHeaderOffset = output.offset
      try output.append(record.localHeader)
      streaming = (record, item.path)
    }
    guard let entry = streaming else { preconditionFailure("a chunk without its entry") }
    var record = entry.record
    let name = entry.name
    let data = data(of: item, in: batch)
    try output.append(data)
    record.crc32 =
      offset == 0
      ? item.crc32 : Zlib.crc32Combine(record.crc32, item.crc32, secondLength: Int64(length))
    record.compressedSize += UInt64(data.count)
    report(bytes: Int64(length))
    streaming = (record, name)
    guard offset + Int64(length) == file.size else { return }
    streaming = nil
    if let before = file.openedInfo {
      try ZipFileSource.checkUnchanged(
        file.descriptor, since: before, displayPath: file.displayPath)
    }
    try output.patch(record.localHeader, at: record.localHeaderOffset)
    try output.addCentralRecord(record)
    if file.storing { storedEntryCount += 1 }
    progress?.completeFile(name)
    completeEntry()
  }

  private func writeWhole(_ record: ZipEntryRecord, data: UnsafeRawBufferPointer) throws {
    var record = record
    record.localHeaderOffset = output.offset
    try record.withLocalHeader { try output.append(UnsafeRawBufferPointer($0)) }
    try output.append(data)
    try output.addCentralRecord(record)
  }

  private func data(of item: ZipBatch.Item, in batch: ZipBatch) -> UnsafeRawBufferPointer {
    let buffer = item.dataInOutput ? batch.output : batch.input
    return UnsafeRawBufferPointer(rebasing: buffer[item.dataRange])
  }

  /// The most bytes a large file's data can take: stored, its size; deflated,
  /// every chunk at worst as stored blocks.
  private static func largestData(of file: ZipStreamedFile) -> UInt64 {
    largestData(size: file.size, storing: file.storing)
  }

  static func largestData(size: Int64, storing: Bool) -> UInt64 {
    if storing { return UInt64(size) }
    let fullChunks = size / Int64(chunkSize)
    let rest = Int(size % Int64(chunkSize))
    return UInt64(fullChunks) * UInt64(DeflateChunk.storedSize(chunkSize))
      + (rest > 0 ? UInt64(DeflateChunk.storedSize(rest)) : 0)
  }

  private func report(bytes: Int64) {
    dataByteCount += bytes
    guard let progress else { return }
    progress.completedByteCount += UInt64(bytes)
    progress.complete(count: Int(bytes))
  }

  private func completeEntry() {
    entryCount += 1
    progress?.complete(count: 1)
  }

  private func checkCancellation() throws {
    try ProgressManager.checkCancellation(of: progress)
  }
}

extension ZipEntryRecord {
  /// The record of an entry with no data yet, stored: its mode the file type's bits and the
  /// entry's permissions, its time the entry's.
  ///
  /// - Parameters:
  ///   - item: The entry.
  ///   - name: Its name in the archive (a folder's ends in `/`).
  ///   - type: The file type's mode bits.
  init(_ item: borrowing ZipBatch.Item, name: String, type: UInt32) {
    self.init(
      name: name, method: .stored, mode: type | (item.permissions & 0o7777),
      modificationTime: item.modificationTime)
  }

  /// The record of a reused entry as a fresh pack writes it: the entry's name, mode and
  /// time, the earlier archive's CRC-32, sizes and method, and a large file's local header
  /// sized as ``ZipEntryWriter`` sizes one it streams; no offset yet.
  ///
  /// - Parameters:
  ///   - data: Where the earlier archive holds the entry.
  ///   - item: The entry.
  ///   - chunkSize: The largest file deflated whole.
  init(reusing data: ZipReusedData, for item: borrowing ZipBatch.Item, chunkSize: Int) {
    self.init(item, name: item.path, type: 0o100000)
    method = data.method
    crc32 = data.crc32
    size = UInt64(item.size)
    compressedSize = UInt64(data.compressedSize)
    if item.size > Int64(chunkSize) {
      localUsesZip64 =
        ZipEntryWriter.largestData(size: item.size, storing: data.method == .stored)
        >= Self.overflow32
    }
  }
}
