import FoundationEssentials
import Glibc
import ProgressReporting

/// Writes tar entries (plain or compressed) through libarchive, in the order
/// they are added, on the caller's thread.
///
/// With more than one job, entries are gathered into ``TarBatch``es whose
/// small files `jobs` worker threads read ahead (open, read, check, close)
/// while the caller's thread writes the batches before them; the archive's
/// bytes are the same as with one job. A file larger than a batch, and every
/// file with one job, is streamed from its descriptor in
/// ``ArchiveWriter/chunkSize`` chunks through one buffer.
///
/// Memory: one chunk buffer, plus with several jobs `2 × readers + 1` batches
/// of ``TarBatch/inputCapacity`` bytes (1.25 MiB with two jobs).
final class TarEntryWriter {
  let handle: ArchiveWriteHandle
  private let options: ArchiveWriterOptions
  private let progress: ProgressManager?
  private let entry: ArchiveEntryHandle
  private let buffer: UnsafeMutableRawBufferPointer
  private var ownerNames: [uid_t: String?] = [:]
  private var groupNames: [gid_t: String?] = [:]
  /// The readers and their batches; `nil` with one job.
  private let pool: WorkerPool<Void>?
  private let pipeline: OrderedPipeline<TarBatch, Void>?
  private var current: TarBatch?
  private var finished = false

  /// The entries written so far.
  private(set) var entryCount = 0
  /// The bytes of file data written so far.
  private(set) var dataByteCount: Int64 = 0

  init(handle: ArchiveWriteHandle, options: ArchiveWriterOptions, progress: ProgressManager?)
    throws
  {
    self.handle = handle
    self.options = options
    self.progress = progress
    entry = try ArchiveEntryHandle()
    buffer = .allocate(byteCount: ArchiveWriter.chunkSize, alignment: 16)
    // As many readers as jobs, beside the caller's thread: reading costs more system time
    // than writing, and one reader left the writer waiting.
    let jobs = options.resolvedJobs
    let readers = jobs > 1 ? jobs : 0
    if readers > 0 {
      let pool = WorkerPool<Void>(threads: readers) {}
      self.pool = pool
      pipeline = OrderedPipeline(pool: pool, capacity: 2 * readers + 1) { batch, _ in
        batch.process()
      }
    } else {
      pool = nil
      pipeline = nil
    }
  }

  deinit {
    abandon()
    buffer.deallocate()
  }

  // MARK: Adding entries

  func writeDirectory(path: String, metadata: ArchiveWriter.Metadata) throws {
    if pipeline != nil {
      return try enqueue(TarBatch.Item(kind: .directory, path: path, metadata: metadata))
    }
    try emitDirectory(path: path, metadata: metadata)
  }

  func writeSymbolicLink(path: String, target: String, metadata: ArchiveWriter.Metadata) throws {
    if pipeline != nil {
      return try enqueue(
        TarBatch.Item(kind: .symbolicLink(target: target), path: path, metadata: metadata))
    }
    try emitSymbolicLink(path: path, target: target, metadata: metadata)
  }

  /// Writes a hard link entry naming an entry written earlier.
  func writeHardLink(path: String, target: String, metadata: ArchiveWriter.Metadata) throws {
    if pipeline != nil {
      return try enqueue(
        TarBatch.Item(kind: .hardLink(target: target), path: path, metadata: metadata))
    }
    try emitHardLink(path: path, target: target, metadata: metadata)
  }

  /// Writes a regular file from memory.
  func writeFile(path: String, data: Data, metadata: ArchiveWriter.Metadata) throws {
    if pipeline != nil, data.count <= TarBatch.inputCapacity {
      return try enqueue(
        TarBatch.Item(kind: .file(.memory(data)), path: path, metadata: metadata),
        dataSize: data.count)
    }
    try flush()
    try data.withUnsafeBytes { try emitFile(path: path, bytes: $0, metadata: metadata) }
  }

  /// Writes a regular file as a listing saw it: read ahead by a worker when it
  /// fits a batch, else streamed from its descriptor here.
  ///
  /// The header records `size`; exactly that many bytes are written. A file
  /// that is not the one listed, turns out shorter, or was written to while
  /// it was read (its size or modification time moved), fails with
  /// ``PackagingErrorDomain/Code/fileChanged``.
  func writeFile(
    path: String, source: ZipFileSource, size: Int64, metadata: ArchiveWriter.Metadata
  ) throws {
    if pipeline != nil, size <= Int64(TarBatch.inputCapacity) {
      return try enqueue(
        TarBatch.Item(kind: .file(source), path: path, metadata: metadata), dataSize: Int(size))
    }
    try flush()
    let (descriptor, opened) = try source.open()
    defer { close(descriptor) }
    try streamFile(
      path: path, descriptor: descriptor, opened: opened, size: size, metadata: metadata,
      sourcePath: source.displayPath)
  }

  /// Writes out every entry added so far.
  ///
  /// - Throws: The first failure of any entry, in archive order, or a write failure.
  func flush() throws {
    guard let pipeline else { return }
    if let batch = current {
      current = nil
      pipeline.submit(batch)
    }
    try pipeline.drain(write)
  }

  /// Writes out every entry and ends the readers; the archive can then be closed.
  ///
  /// - Throws: The first failure of any entry, in archive order, or a write failure.
  func finish() throws {
    defer { abandon() }
    try flush()
  }

  /// Stops: waits for the readers to let go of their batches and ends them.
  func abandon() {
    guard !finished else { return }
    finished = true
    pipeline?.abandon()
    pool?.close()
  }

  // MARK: Reading ahead

  private func enqueue(_ item: TarBatch.Item, dataSize: Int = 0) throws {
    guard let pipeline else { preconditionFailure("entries are queued only with readers") }
    try checkCancellation()
    if let current, current.hasRoom(forDataOf: dataSize) {
      current.append(item, dataSize: dataSize)
      return
    }
    if let batch = current {
      current = nil
      pipeline.submit(batch)
    }
    let batch = try pipeline.nextWork(make: { TarBatch() }, deliver: write)
    batch.reset()
    batch.append(item, dataSize: dataSize)
    current = batch
  }

  /// Writes a read batch's entries out, in order (the caller's thread).
  private func write(_ batch: TarBatch) throws {
    for (index, item) in batch.items.enumerated() {
      if index == batch.failedIndex, let failure = batch.failure { throw failure }
      try checkCancellation()
      switch item.kind {
      case .directory:
        try emitDirectory(path: item.path, metadata: item.metadata)
      case .symbolicLink(let target):
        try emitSymbolicLink(path: item.path, target: target, metadata: item.metadata)
      case .hardLink(let target):
        try emitHardLink(path: item.path, target: target, metadata: item.metadata)
      case .file:
        try emitFile(path: item.path, bytes: batch.data(of: item), metadata: item.metadata)
      }
    }
  }

  // MARK: Writing (the caller's thread)

  private func emitDirectory(path: String, metadata: ArchiveWriter.Metadata) throws {
    try prepareEntry(path: path, type: .directory, metadata: metadata)
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    completeEntry()
  }

  private func emitSymbolicLink(path: String, target: String, metadata: ArchiveWriter.Metadata)
    throws
  {
    try prepareEntry(path: path, type: .symbolicLink, metadata: metadata)
    entry.symlinkTarget = target
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    completeEntry()
  }

  private func emitHardLink(path: String, target: String, metadata: ArchiveWriter.Metadata)
    throws
  {
    progress?.startFile(path, size: 0)
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.hardlinkTarget = target
    entry.size = 0
    try handle.writeHeader(entry)
    try handle.finishEntry(name: path)
    progress?.completeFile(path)
    completeEntry()
  }

  /// Writes a regular file whose bytes are in memory, in ``ArchiveWriter/chunkSize``
  /// chunks with a cancellation check before each.
  private func emitFile(
    path: String, bytes: UnsafeRawBufferPointer, metadata: ArchiveWriter.Metadata
  ) throws {
    progress?.startFile(path, size: Int64(bytes.count))
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.size = Int64(bytes.count)
    try handle.writeHeader(entry)
    var offset = 0
    while offset < bytes.count {
      try checkCancellation()
      let end = min(offset + ArchiveWriter.chunkSize, bytes.count)
      try handle.writeData(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), name: path)
      report(bytes: end - offset)
      offset = end
    }
    try finishFile(path: path)
  }

  /// Streams an open regular file into a new entry, `opened` being its status
  /// when it was opened (taken then, so it is not asked for twice).
  private func streamFile(
    path: String, descriptor: Int32, opened before: stat, size: Int64,
    metadata: ArchiveWriter.Metadata, sourcePath: String
  ) throws {
    progress?.startFile(path, size: size)
    if size > Int64(ArchiveWriter.chunkSize) {
      _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
    }
    try prepareEntry(path: path, type: .regular, metadata: metadata)
    entry.size = size
    try handle.writeHeader(entry)
    var written: Int64 = 0
    while written < size {
      try checkCancellation()
      let count = Int(min(Int64(buffer.count), size - written))
      let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
      try ZipFileSource.read(
        descriptor, into: chunk, at: written, size: size, displayPath: sourcePath)
      try handle.writeData(UnsafeRawBufferPointer(chunk), name: path)
      written += Int64(count)
      report(bytes: count)
    }
    try ZipFileSource.checkUnchanged(descriptor, since: before, displayPath: sourcePath)
    try finishFile(path: path)
  }

  // MARK: Helpers

  private func report(bytes: Int) {
    dataByteCount += Int64(bytes)
    guard let progress else { return }
    progress.completedByteCount += UInt64(bytes)
    progress.complete(count: bytes)
  }

  private func finishFile(path: String) throws {
    try handle.finishEntry(name: path)
    progress?.completeFile(path)
    completeEntry()
  }

  private func completeEntry() {
    entryCount += 1
    progress?.complete(count: 1)
  }

  private func checkCancellation() throws {
    try ProgressManager.checkCancellation(of: progress)
  }

  private func prepareEntry(
    path: String, type: ArchiveEntryHandle.FileType, metadata: ArchiveWriter.Metadata
  ) throws {
    entry.clear()
    entry.pathname = path
    entry.fileType = type
    entry.permissions = metadata.permissions
    if options.reproducible {
      entry.userID = 0
      entry.groupID = 0
    } else {
      entry.userID = Int64(metadata.userID)
      entry.groupID = Int64(metadata.groupID)
      if let name = ownerName(metadata.userID) { entry.userName = name }
      if let name = groupName(metadata.groupID) { entry.groupName = name }
    }
    entry.modificationTime = metadata.modificationTime
    if !metadata.extendedAttributes.isEmpty {
      // After the mode: libarchive keeps an access ACL's owning-group entry in the mode's
      // group bits (which the kernel shows as the mask), as bsdtar records them.
      entry.extendedAttributes = metadata.extendedAttributes
    }
  }

  private func ownerName(_ id: uid_t) -> String? {
    if let cached = ownerNames[id] { return cached }
    var record = passwd()
    var result: UnsafeMutablePointer<passwd>?
    var scratch = [CChar](repeating: 0, count: 1024)
    var name: String?
    if getpwuid_r(id, &record, &scratch, scratch.count, &result) == 0, let result {
      name = String(cString: result.pointee.pw_name)
    }
    ownerNames[id] = name
    return name
  }

  private func groupName(_ id: gid_t) -> String? {
    if let cached = groupNames[id] { return cached }
    var record = group()
    var result: UnsafeMutablePointer<group>?
    var scratch = [CChar](repeating: 0, count: 1024)
    var name: String?
    if getgrgid_r(id, &record, &scratch, scratch.count, &result) == 0, let result {
      name = String(cString: result.pointee.gr_name)
    }
    groupNames[id] = name
    return name
  }
}
