internal import CZlib

/// Owns one zlib raw-deflate stream (`z_stream` after `deflateInit2_`), ended in `deinit`.
///
/// Used chunk by chunk: ``compress(_:dictionary:into:finishing:name:)`` resets
/// the stream, primes it with the bytes before the chunk, and compresses the
/// chunk to a byte boundary (sync flush) or to the stream's end, so that
/// chunks compressed by different workers join into one stream. Not shared
/// between threads: each worker owns its own.
final class DeflateStream {
  /// zlib checks that a stream has not moved: it lives at a fixed address.
  private let stream: UnsafeMutablePointer<z_stream>
  /// The compression level, 1–9.
  let level: Int

  /// The longest dictionary deflate can use: its window.
  static let windowSize = 32 * 1024

  /// Creates a raw deflate stream (no zlib or gzip wrapper, 32 KiB window).
  ///
  /// The corresponding C function is `deflateInit2_`.
  ///
  /// - Parameter level: The compression level, 1–9.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when zlib refuses.
  init(level: Int) throws {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    self.level = level
    let status = deflateInit2_(
      stream, CInt(level), Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
      CInt(MemoryLayout<z_stream>.size))
    do {
      try Zlib.check(
        status, message: stream.pointee.msg, "starting the compressor at level \(level)",
        failing: .compressorFailed)
    } catch {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw error
    }
  }

  deinit {
    deflateEnd(stream)
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Compresses one chunk of a stream.
  ///
  /// The corresponding C functions are `deflateReset`, `deflateSetDictionary` and `deflate`.
  ///
  /// - Parameters:
  ///   - input: The chunk.
  ///   - dictionary: The bytes just before the chunk (its last 32 KiB count;
  ///     empty for the first chunk).
  ///   - output: Where the compressed chunk goes: at least
  ///     ``DeflateChunk/outputCapacity(forChunkOf:)`` bytes.
  ///   - finishing: Whether this is the stream's last chunk (ends it), or not
  ///     (ends on a byte boundary so the next chunk can follow).
  ///   - name: The file or stream, for messages.
  /// - Returns: The compressed length.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when zlib fails or the output is
  ///   too small.
  func compress(
    _ input: UnsafeRawBufferPointer, dictionary: UnsafeRawBufferPointer,
    into output: UnsafeMutableRawBufferPointer, finishing: Bool, name: @autoclosure () -> String
  ) throws -> Int {
    try check(deflateReset(stream), name())
    if let base = dictionary.baseAddress, dictionary.count > 0 {
      let length = min(dictionary.count, Self.windowSize)
      let start = (base + (dictionary.count - length)).assumingMemoryBound(to: Bytef.self)
      try check(deflateSetDictionary(stream, start, uInt(length)), name())
    }
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = uInt(input.count)
    stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = uInt(output.count)
    let status = deflate(stream, finishing ? Z_FINISH : Z_SYNC_FLUSH)
    try check(status, name())
    let done = finishing ? status == Z_STREAM_END : stream.pointee.avail_out > 0
    guard done, stream.pointee.avail_in == 0 else {
      throw PackagingError(
        .compressorFailed, "compressing \(name()): the output buffer was too small")
    }
    return output.count - Int(stream.pointee.avail_out)
  }

  private func check(_ status: CInt, _ name: String) throws {
    try Zlib.check(
      status, message: stream.pointee.msg, "compressing \(name)", failing: .compressorFailed)
  }
}
