import FolioSystem
import ProgressReporting
import Synchronization

/// Writes a zip's regular files into the staging folder on worker threads.
///
/// The expansion's own thread still walks the central directory in order:
/// it admits each name through the ledger, creates folders, records links
/// (created last, by ``StagingFolder/prepare(top:)``) and creates each file,
/// empty and owner-only. Only then is the file handed over here, in a batch
/// of up to ``batchFileLimit`` files (or one batch's worth of declared
/// bytes); a worker reads each file's data from the archive (a
/// ``ZipEntryReader`` of its own: size and CRC-32 checked), charges the
/// shared ``ExpansionBudget`` as it writes, and finishes the file (mode,
/// time, flush when durable). The entries written are the entries
/// ``ZipExpansionCheck`` judged, in the same order.
///
/// Batches are handed back in order (``OrderedPipeline``), so files are
/// reported in archive order and the failure thrown is that of the first
/// failing entry in archive order, whatever the threads did: once a batch
/// fails, later batches stop, earlier ones finish. Byte progress is reported
/// by the workers as they write.
///
/// Memory: each worker holds one reader at a time (a 64 KiB read buffer, a
/// 64 KiB decoded chunk, zlib's 32 KiB window and state), so buffers come to
/// `jobs × 200 KiB` plus the batches' small per-file records
/// (`(2 × jobs + 1) × batchFileLimit`), whatever the archive holds. Open
/// descriptors: at most ``openFileLimit`` files waiting in batches.
final class ParallelZipExtraction {
  /// The most files one batch holds.
  static let batchFileLimit = 32
  /// A batch is handed over once its files declare this many bytes, so one
  /// large file does not keep small ones waiting behind it.
  static let batchByteLimit: Int64 = 1 << 20
  /// The most created files waiting in batches (each an open descriptor).
  static let openFileLimit = 256

  private let pool: WorkerPool<Void>
  private let pipeline: OrderedPipeline<ZipFileBatch, Void>
  private let shared: Shared
  private let reporter: ProgressManager?
  private let filesPerBatch: Int
  private var filling: ZipFileBatch?
  private var nextSequence = 0
  private var closed = false

  /// What the workers share: the archive, the budget, the stop line and the progress.
  final class Shared: Sendable {
    let archive: ZipArchive
    let budget: ExpansionBudget
    let reporter: ProgressManager?
    /// The compressed bytes of every entry handed to a worker so far, each whole: what
    /// the total ratio is measured against.
    let dispatchedCompressed = Atomic<Int64>(0)
    /// Batches with a higher sequence number stop: the first failed batch's number, or
    /// -1 once the expansion's own thread failed.
    let stopAfter = Atomic<Int>(Int.max)
    /// Serialises `completedByteCount += n` between workers.
    let progressLock = Mutex<Void>(())

    init(archive: ZipArchive, budget: ExpansionBudget, reporter: ProgressManager?) {
      self.archive = archive
      self.budget = budget
      self.reporter = reporter
    }

    func addCompletedBytes(_ count: UInt64) {
      guard let reporter else { return }
      progressLock.withLock { _ in reporter.completedByteCount += count }
    }

    func stops(_ sequence: Int) -> Bool { sequence > stopAfter.load(ordering: .relaxed) }

    func noteFailure(_ sequence: Int) { stopAfter.storeMinimum(sequence) }
  }

  /// Starts the workers.
  ///
  /// - Parameters:
  ///   - archive: The checked archive.
  ///   - budget: The expansion's budget, shared with its own thread.
  ///   - reporter: Where bytes and files are reported and cancellation is checked.
  ///   - jobs: How many threads write (at least 2; one job expands on its own thread).
  init(archive: ZipArchive, budget: ExpansionBudget, reporter: ProgressManager?, jobs: Int) {
    shared = Shared(archive: archive, budget: budget, reporter: reporter)
    self.reporter = reporter
    pool = WorkerPool(threads: jobs) { () }
    let capacity = 2 * jobs + 1
    filesPerBatch = max(1, min(Self.batchFileLimit, Self.openFileLimit / capacity))
    let shared = self.shared
    pipeline = OrderedPipeline(pool: pool, capacity: capacity) { batch, _ in
      batch.write(shared)
    }
  }

  deinit { abandon() }

  /// Hands over a created file to be written.
  ///
  /// - Parameters:
  ///   - entry: Its zip entry.
  ///   - file: The empty file, created by the staging folder.
  ///   - permissions: Its final permission bits.
  ///   - time: Its modification time, if stored.
  ///   - distinctConsumed: The archive bytes reached so far, this entry's included.
  /// - Throws: The first failure of an earlier file, in archive order.
  func add(
    _ entry: ZipEntry, file: OutputFile, permissions: UInt32, time: StagingFolder.Time?,
    distinctConsumed: Int64
  ) throws {
    shared.dispatchedCompressed.store(distinctConsumed, ordering: .relaxed)
    let batch: ZipFileBatch
    if let filling {
      batch = filling
    } else {
      batch = try pipeline.nextWork(make: { ZipFileBatch() }, deliver: deliver)
      batch.sequence = nextSequence
      nextSequence += 1
      filling = batch
    }
    batch.items.append(.init(entry: entry, file: file, permissions: permissions, time: time))
    batch.declaredBytes += entry.uncompressedSize
    if batch.items.count >= filesPerBatch || batch.declaredBytes >= Self.batchByteLimit {
      filling = nil
      pipeline.submit(batch)
    }
  }

  /// Adds bytes to the progress as the workers do (a `+=` from two threads at once
  /// would lose one).
  ///
  /// - Parameter count: Bytes written.
  func addCompletedBytes(_ count: UInt64) { shared.addCompletedBytes(count) }

  /// Writes what is left and waits for every file.
  ///
  /// - Throws: The first failure, in archive order.
  func finish() throws {
    if let filling {
      self.filling = nil
      pipeline.submit(filling)
    }
    try pipeline.drain(deliver)
    close()
  }

  /// Stops the workers after a failure: batches not yet started are skipped, those
  /// running end at their next chunk; returns once no worker touches a file.
  func abandon() {
    guard !closed else { return }
    shared.stopAfter.store(-1, ordering: .relaxed)
    filling = nil
    pipeline.abandon()
    close()
  }

  private func close() {
    guard !closed else { return }
    closed = true
    pool.close()
  }

  /// Reports a finished batch's files in order, or throws its failure.
  private func deliver(_ batch: ZipFileBatch) throws {
    defer { batch.reset() }
    for item in batch.items.prefix(batch.writtenCount) {
      let path = item.file.path.string
      reporter?.startFile(path, size: item.entry.uncompressedSize)
      reporter?.completeFile(path)
    }
    if let failure = batch.failure { throw failure }
  }
}

/// Files handed to one worker at a time, and what became of them.
final class ZipFileBatch: @unchecked Sendable {
  struct Item {
    let entry: ZipEntry
    let file: OutputFile
    let permissions: UInt32
    let time: StagingFolder.Time?
  }

  var items: [Item] = []
  var sequence = 0
  var declaredBytes: Int64 = 0
  /// How many of the items were written and finished.
  var writtenCount = 0
  var failure: (any Error)?

  /// Writes every item, stopping at the first failure or when an earlier batch failed.
  func write(_ shared: ParallelZipExtraction.Shared) {
    for item in items {
      if shared.stops(sequence) {
        // An earlier batch's failure is what is thrown; this one only stops.
        failure = failure ?? CancellationError()
        return
      }
      do {
        try write(item, shared)
        writtenCount += 1
      } catch {
        failure = error
        shared.noteFailure(sequence)
        return
      }
    }
  }

  private func write(_ item: Item, _ shared: ParallelZipExtraction.Shared) throws {
    let entry = item.entry
    let reader = try shared.archive.reader(for: entry)
    var charges = shared.budget.start(
      entry.name, compressedSize: entry.compressedSize, consumed: 0)
    var offset: Int64 = 0
    while let chunk = try reader.next() {
      if shared.stops(sequence) { throw CancellationError() }
      try shared.reporter?.checkCancellation()
      let count = Int64(chunk.count)
      try shared.budget.charge(
        &charges, logical: count, data: count, consumed: 0,
        distinctConsumed: shared.dispatchedCompressed.load(ordering: .relaxed))
      try item.file.write(chunk, at: offset)
      offset += count
      shared.addCompletedBytes(UInt64(count))
    }
    try item.file.finish(permissions: item.permissions, time: item.time, attributes: [])
  }

  func reset() {
    items.removeAll(keepingCapacity: true)
    declaredBytes = 0
    writtenCount = 0
    failure = nil
  }
}
