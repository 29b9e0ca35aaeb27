/// The staging folder's writes done on a thread of their own, in the order they are
/// asked for, while the expansion's thread decodes the entries that follow (tar and the
/// other formats libarchive reads, which decode one entry after another).
///
/// The expansion's thread still judges every entry (the ledger), charges the
/// budgets and checks sizes as it decodes; it hands this writer the folder,
/// file, link and data operations it would have done itself, and never
/// touches the staging folder again until ``finish()`` returns. Data is
/// copied into one of ``chunkCount`` buffers of ``ByteSourceChunk/size``
/// bytes, one after another in the same buffer while they fit (a small file's
/// bytes take what they need, not a buffer each), waiting while all are in
/// use, so the writer holds at most 1 MiB whatever the archive.
///
/// Operations go over in batches: when a buffer is full, or after
/// ``batchLimit`` operations, or at the end. One hand-over per operation would
/// wake the writer thread for each (a `futex` call on either side); a batch a
/// buffer wakes it far less often for many small files.
///
/// The first failure stops the writer; it is thrown at the expansion's next
/// hand-over or at ``finish()``, and it is always an earlier entry's than the
/// one being decoded.
final class StagingWriter: @unchecked Sendable {
  /// Buffers of decoded data waiting to be written.
  static let chunkCount = 16
  /// The most operations gathered before they are handed over (entries without data:
  /// folders, empty files, links).
  static let batchLimit = 64

  /// One staging operation, run on the writer thread.
  private typealias Operation = @Sendable (StagingWriter) throws -> Void

  private let staging: StagingFolder
  private let pool: WorkerPool<Void>
  private let lock = ConditionLock()
  private let buffers: UnsafeMutableRawBufferPointer
  private var freeChunks: [Int]
  private var failure: (any Error)?
  private var stopped = false
  private var closed = false
  /// The file being written: touched on the writer thread only.
  private var current: OutputFile?
  /// Operations not handed over yet: touched on the expansion's thread only.
  private var batch: [Operation] = []
  /// The buffer being filled and how much of it is used: the expansion's thread only.
  private var fillingChunk: Int?
  private var filled = 0

  /// Starts the writer thread.
  ///
  /// - Parameter staging: Where entries are written; only this writer touches it until
  ///   ``finish()``.
  init(staging: StagingFolder) {
    self.staging = staging
    pool = WorkerPool(threads: 1) { () }
    buffers = .allocate(
      byteCount: Self.chunkCount * ByteSourceChunk.size, alignment: 16)
    freeChunks = Array(0..<Self.chunkCount)
  }

  deinit {
    abandon()
    buffers.deallocate()
  }

  /// Runs a staging operation on the writer thread, after those handed over before.
  ///
  /// - Parameter operation: What to do with the staging folder.
  /// - Throws: The writer's first failure, if it stopped.
  func perform(_ operation: @escaping @Sendable (StagingFolder) throws -> Void) throws {
    try throwIfFailed()
    enqueue { writer in try operation(writer.staging) }
  }

  /// Creates a regular file; the writes and the finish that follow go to it.
  func createFile(_ path: RelativePath) throws {
    try throwIfFailed()
    enqueue { writer in writer.current = try writer.staging.createFile(path) }
  }

  /// Copies bytes and writes them into the current file at `offset`.
  func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
    var start = 0
    while start < bytes.count {
      let wanted = min(ByteSourceChunk.size, bytes.count - start)
      // A piece that does not fit what is left of the buffer starts the next one, so a
      // block is never split between two writes.
      if fillingChunk == nil || ByteSourceChunk.size - filled < wanted {
        try startChunk()
      }
      let chunk = fillingChunk!
      let chunkOffset = filled
      (buffers.baseAddress! + chunk * ByteSourceChunk.size + chunkOffset)
        .copyMemory(from: bytes.baseAddress! + start, byteCount: wanted)
      filled += wanted
      let at = offset + Int64(start)
      enqueue { writer in
        let data = UnsafeRawBufferPointer(
          start: writer.buffers.baseAddress! + chunk * ByteSourceChunk.size + chunkOffset,
          count: wanted)
        try writer.current?.write(data, at: at)
      }
      start += wanted
    }
  }

  /// Extends the current file with a hole (a sparse entry's trailing hole).
  func extend(to length: Int64) throws {
    try throwIfFailed()
    enqueue { writer in try writer.current?.extend(to: length) }
  }

  /// Sets the current file's mode and time and closes it.
  func finishFile(
    permissions: UInt32, time: StagingFolder.Time?, attributes: [ExtendedAttribute] = []
  ) throws {
    try throwIfFailed()
    enqueue { writer in
      defer { writer.current = nil }
      try writer.current?.finish(permissions: permissions, time: time, attributes: attributes)
    }
  }

  /// Waits until everything handed over is written and ends the thread.
  ///
  /// - Throws: The first failure.
  func finish() throws {
    releaseChunk()
    handOver()
    close()
    try throwIfFailed()
  }

  /// Stops after a failure of the expansion's own: what is queued is skipped; returns
  /// once the writer thread ended.
  ///
  /// - Returns: The writer's own failure, which came first, if any.
  @discardableResult
  func abandon() -> (any Error)? {
    lock.withLock { stopped = true }
    batch = []
    close()
    return lock.withLock { failure }
  }

  private func close() {
    guard !closed else { return }
    closed = true
    pool.close()
    current = nil
  }

  private func enqueue(_ operation: @escaping Operation) {
    batch.append(operation)
    if batch.count >= Self.batchLimit { handOver() }
  }

  /// Hands the gathered operations to the writer thread as one job.
  private func handOver() {
    guard !batch.isEmpty else { return }
    let operations = batch
    batch = []
    pool.submit { [self] _ in
      guard !lock.withLock({ stopped }) else {
        return
      }
      do {
        for operation in operations { try operation(self) }
      } catch {
        lock.withLock {
          if failure == nil { failure = error }
          stopped = true
          lock.broadcast()
        }
      }
    }
  }

  /// Ends the buffer being filled (given back once the writes queued before are done),
  /// hands the batch over, and takes a free buffer, waiting for one if need be.
  private func startChunk() throws {
    releaseChunk()
    handOver()
    fillingChunk = try takeChunk()
    filled = 0
  }

  private func releaseChunk() {
    guard let chunk = fillingChunk else { return }
    fillingChunk = nil
    enqueue { writer in writer.returnChunk(chunk) }
  }

  private func throwIfFailed() throws {
    if let failure = lock.withLock({ failure }) { throw failure }
  }

  private func takeChunk() throws -> Int {
    try lock.withLock {
      while freeChunks.isEmpty && failure == nil { lock.wait() }
      if let failure { throw failure }
      return freeChunks.removeLast()
    }
  }

  private func returnChunk(_ chunk: Int) {
    lock.withLock {
      freeChunks.append(chunk)
      lock.broadcast()
    }
  }
}
