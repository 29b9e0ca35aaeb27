import FolioSystem

/// Compresses a byte stream into one zstd frame on zstd's worker threads, in
/// jobs of ``jobSize`` bytes.
///
/// Always with one worker or more, never zstd's single-threaded mode: the
/// worker mode's bytes are the same whatever the number of workers, so the
/// archive is the same for every `--jobs`. The frame carries zstd's content
/// checksum, as zstd's own tool writes it. Memory: a ring of the input four
/// jobs long (plus a job a worker past one), an output buffer a job in flight,
/// and each worker's match tables (about 1 MiB at the default level 3).
final class ZstdStreamWriter: CompressedOutput {
  /// The bytes one worker compresses at a time.
  ///
  /// zstd keeps a ring of the input four jobs long and an output buffer a job in flight,
  /// so the job size is most of its memory; zstd's smallest job (its default is four
  /// windows, 8 MiB at level 3) costs no time and little ratio (docs/PERFORMANCE.md).
  static let jobSize = 512 << 10

  /// How much of the input before a job its worker reads as a dictionary: the window
  /// shifted right by 9 minus this (zstd's `overlapLog`, 1–9).
  ///
  /// zstd's default at level 3 is 6, an eighth of the window, which every worker hashes
  /// before compressing its own bytes; 4 (a 64 KiB overlap) saves that processor time for
  /// a negligible loss of ratio, where no overlap at all loses more (docs/PERFORMANCE.md).
  static let overlapLog = 4

  private let context: ZstdCompressionContext
  /// The archive's descriptor, whose disk writing starts a stretch at a time.
  private var output: WriteBehind
  private let name: String
  private let buffer: UnsafeMutableRawBufferPointer
  private var closed = false

  /// The bytes written to the descriptor so far.
  private(set) var bytesWritten: Int64 = 0

  /// Starts zstd's workers.
  ///
  /// - Parameters:
  ///   - descriptor: Where the compressed bytes go; never closed here.
  ///   - name: The archive's path, for messages.
  ///   - level: The zstd level, 1–19.
  ///   - jobs: How many threads compress (at least one worker either way).
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when zstd refuses a setting.
  init(descriptor: Int32, name: String, level: Int, jobs: Int) throws {
    context = try ZstdCompressionContext(
      level: level, workers: max(1, jobs), jobSize: Self.jobSize, overlapLog: Self.overlapLog,
      name: name)
    output = WriteBehind(descriptor: descriptor)
    self.name = name
    buffer = .allocate(byteCount: ZstdCompressionContext.recommendedOutputSize, alignment: 16)
  }

  deinit { buffer.deallocate() }

  func write(_ bytes: UnsafeRawBufferPointer) throws {
    var offset = 0
    while offset < bytes.count {
      // zstd takes what its jobs have room for, and waits for a worker when none has.
      let step = try context.compress(
        UnsafeRawBufferPointer(rebasing: bytes[offset...]), into: buffer, ending: false)
      offset += step.consumed
      try writeOut(step.produced)
    }
  }

  func finish() throws {
    guard !closed else { return }
    while true {
      let step = try context.compress(
        UnsafeRawBufferPointer(start: nil, count: 0), into: buffer, ending: true)
      try writeOut(step.produced)
      if step.remaining == 0 { break }
    }
    closed = true
  }

  func abandon() {
    // Nothing more is written; the context's workers end when it is freed.
    closed = true
  }

  private func writeOut(_ count: Int) throws {
    guard count > 0 else { return }
    let failure = output.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    if failure != 0 { throw PackagingError.system("cannot write '\(name)'", errno: failure) }
    bytesWritten += Int64(count)
  }
}
