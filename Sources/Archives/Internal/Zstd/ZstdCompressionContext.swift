internal import CZstd

/// Owns one zstd compression context (`ZSTD_CCtx *`), freed in `deinit`, and
/// with it zstd's worker threads when it has any.
///
/// Used by one thread at a time: the thread that feeds it. With one worker
/// or more, zstd compresses in jobs on its own threads, and its output is the
/// same whatever the number of workers.
final class ZstdCompressionContext {
  private let pointer: OpaquePointer
  /// What the context compresses, for messages.
  private let name: String

  /// Creates a context for one frame.
  ///
  /// The corresponding C functions are `ZSTD_createCCtx` and `ZSTD_CCtx_setParameter`
  /// (compression level, checksum, workers and job size).
  ///
  /// - Parameters:
  ///   - level: The compression level, 1–19.
  ///   - workers: How many threads compress; 0 compresses on the caller's thread, in
  ///     zstd's single-threaded format, whose bytes differ from the workers'.
  ///   - jobSize: The bytes one worker's job takes (zstd's minimum is 512 KiB).
  ///   - overlapLog: How much of the input before a job its worker reads as a dictionary
  ///     (zstd's `overlapLog`: 1 none, 9 the whole window).
  ///   - name: What is compressed, for messages.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when zstd refuses a setting
  ///   (a library built without threads refuses workers).
  init(level: Int, workers: Int, jobSize: Int, overlapLog: Int, name: String) throws {
    guard let pointer = ZSTD_createCCtx() else {
      throw PackagingError(.compressorFailed, "cannot allocate a zstd compressor for '\(name)'")
    }
    self.pointer = pointer
    self.name = name
    try set(ZSTD_c_compressionLevel, level, "level \(level)")
    // zstd's own tool writes the content checksum, which every reader then verifies.
    try set(ZSTD_c_checksumFlag, 1, "the checksum")
    if workers > 0 {
      try set(ZSTD_c_nbWorkers, workers, "\(workers) workers")
      try set(ZSTD_c_jobSize, jobSize, "jobs of \(jobSize) bytes")
      try set(ZSTD_c_overlapLog, overlapLog, "overlap of \(overlapLog)")
    }
  }

  deinit { ZSTD_freeCCtx(pointer) }

  private func set(_ parameter: ZSTD_cParameter, _ value: Int, _ what: String) throws {
    try Zstd.check(
      ZSTD_CCtx_setParameter(pointer, parameter, CInt(value)),
      "setting zstd's \(what) for '\(name)'")
  }

  /// Compresses some input into the output buffer, or ends the frame.
  ///
  /// The corresponding C function is `ZSTD_compressStream2`. With workers it
  /// hands the input to them and returns what they finished; it waits only
  /// when no input could be taken, or when ending.
  ///
  /// - Parameters:
  ///   - input: The bytes to compress (empty when ending).
  ///   - output: Where compressed bytes go.
  ///   - ending: Whether this is the end of the frame.
  /// - Returns: The input bytes taken, the output bytes written, and (when ending)
  ///   the bytes still to be flushed: call again until that is 0.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` with zstd's words.
  func compress(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, ending: Bool
  ) throws -> (consumed: Int, produced: Int, remaining: Int) {
    var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
    var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
    let remaining = try Zstd.check(
      ZSTD_compressStream2(pointer, &outBuffer, &inBuffer, ending ? ZSTD_e_end : ZSTD_e_continue),
      "compressing '\(name)'")
    return (inBuffer.pos, outBuffer.pos, remaining)
  }

  /// The output buffer size zstd recommends: one block and its header.
  static var recommendedOutputSize: Int { ZSTD_CStreamOutSize() }
}
