import FolioSystem
import Glibc
import UniformTypes

/// Compresses a byte stream into one gzip member, block-parallel as pigz does.
///
/// The stream is cut into ``chunkSize`` chunks; workers deflate them apart,
/// each primed with the 32 KiB before it and ended on a byte boundary, and the
/// caller's thread writes them in order between the gzip header and a trailer
/// whose CRC-32 is combined from the chunks'. The result is one valid member
/// (`gzip -t` and every reader take it), the same bytes whatever the number of
/// jobs. Memory: `(2 × jobs + 1)` chunks of about 290 KiB, and the compressors.
final class ParallelGzipWriter: CompressedOutput {
  /// The size of the chunks compressed apart.
  static let chunkSize = 128 * 1024

  /// The archive's descriptor, whose disk writing starts a stretch at a time.
  private var output: WriteBehind
  private let name: String
  private let level: Int
  private let pool: WorkerPool<CompressionWorkspace>
  private let pipeline: OrderedPipeline<DeflateChunkWork, CompressionWorkspace>
  /// The chunk being filled (its dictionary already copied in).
  private var filling: DeflateChunkWork?
  /// The last 32 KiB of the stream so far, the next chunk's dictionary.
  private var window: [UInt8] = []
  private var crc32: UInt32 = 0
  private var inputSize: UInt64 = 0
  private var started = false
  private var closed = false

  /// The bytes written to the descriptor so far.
  private(set) var bytesWritten: Int64 = 0

  /// Starts the workers.
  ///
  /// - Parameters:
  ///   - descriptor: Where the compressed bytes go; never closed here.
  ///   - name: The archive's path, for messages.
  ///   - level: The deflate level, 1–9.
  ///   - jobs: How many threads compress (1: the caller's thread).
  init(descriptor: Int32, name: String, level: Int, jobs: Int) {
    output = WriteBehind(descriptor: descriptor)
    self.name = name
    self.level = level
    pool = WorkerPool(threads: jobs > 1 ? jobs : 0) {
      // One stream, no file names: the probe only samples bytes, so no registry is built.
      CompressionWorkspace(level: level, registry: nil)
    }
    pipeline = OrderedPipeline(pool: pool, capacity: jobs > 1 ? 2 * jobs + 1 : 1) {
      work, workspace in work.process(workspace)
    }
  }

  deinit { abandon() }

  /// Takes the next bytes of the stream.
  ///
  /// - Parameter bytes: The bytes.
  /// - Throws: ``PackagingError`` when compressing or writing fails.
  func write(_ bytes: UnsafeRawBufferPointer) throws {
    if !started {
      started = true
      try writeOut(Self.header(level: level))
    }
    var offset = 0
    while offset < bytes.count {
      let work = try currentWork()
      if work.length == work.capacity {
        // Full, and more follows: it does not end the stream. Its last 32 KiB prime the next.
        window = Array(work.chunk.suffix(DeflateStream.windowSize))
        filling = nil
        pipeline.submit(work)
        continue
      }
      let count = min(bytes.count - offset, work.capacity - work.length)
      let start = work.dictionaryLength + work.length
      (work.input.baseAddress! + start).copyMemory(
        from: bytes.baseAddress! + offset, byteCount: count)
      work.length += count
      offset += count
    }
  }

  /// Ends the member: the last chunk, then the CRC-32 and the size.
  ///
  /// - Throws: ``PackagingError`` when compressing or writing fails.
  func finish() throws {
    if !started {
      started = true
      try writeOut(Self.header(level: level))
    }
    let work = try currentWork()
    work.finishing = true
    filling = nil
    pipeline.submit(work)
    try pipeline.drain(deliver)
    let trailer = LittleEndianBytes.array(capacity: 8) { trailer in
      trailer.append(crc32)
      trailer.append(UInt32(truncatingIfNeeded: inputSize))
    }
    try writeOut(trailer)
    closed = true
    pool.close()
  }

  /// Stops the workers without writing anything more.
  func abandon() {
    guard !closed else { return }
    closed = true
    pipeline.abandon()
    pool.close()
  }

  /// The chunk being filled, or a new one primed with the window.
  private func currentWork() throws -> DeflateChunkWork {
    if let filling { return filling }
    let work = try pipeline.nextWork(
      make: { DeflateChunkWork(capacity: Self.chunkSize) }, deliver: deliver)
    work.name = "'\(name)'"
    work.finishing = false
    work.length = 0
    work.dictionaryLength = window.count
    window.withUnsafeBytes { work.input.copyMemory(from: $0) }
    filling = work
    return work
  }

  private func deliver(_ work: DeflateChunkWork) throws {
    if let failure = work.failure { throw failure }
    crc32 = Zlib.crc32Combine(crc32, work.crc32, secondLength: Int64(work.length))
    inputSize += UInt64(work.length)
    try writeOut(work.compressed)
  }

  private func writeOut(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try writeOut($0) }
  }

  private func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
    let failure = output.append(bytes)
    if failure != 0 { throw PackagingError.system("cannot write '\(name)'", errno: failure) }
    bytesWritten += Int64(bytes.count)
  }

  /// A gzip header: deflate, no name, no time (0), the level's hint, Unix.
  static func header(level: Int) -> [UInt8] {
    let hint: UInt8 = level >= 9 ? 2 : level == 1 ? 4 : 0
    return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, hint, 3]
  }
}
