internal import CZlib

/// Owns one zlib inflate stream (`z_stream` after `inflateInit2_`), freed in `deinit`.
///
/// A stream decodes either raw DEFLATE data (a zip entry's method 8) or one
/// gzip member, whose header zlib parses and whose trailer (CRC-32 and
/// length) zlib checks; ``reset()`` readies it for the next member. It is not
/// shared between threads: each reader owns its own.
final class InflateStream {
  /// What the compressed bytes are wrapped in.
  enum Wrapper {
    /// Bare DEFLATE (RFC 1951), as zip stores it.
    case raw
    /// One gzip member (RFC 1952): header, DEFLATE data, CRC-32 and length.
    case gzip
  }

  /// How one ``inflate(_:into:operation:)`` call went.
  struct Step {
    /// Input bytes taken.
    var consumed: Int
    /// Output bytes written.
    var produced: Int
    /// Whether the stream (or gzip member, trailer checked) ended.
    var ended: Bool
  }

  private let stream: UnsafeMutablePointer<z_stream>
  private var initialized = false

  /// Creates a stream.
  ///
  /// The corresponding C function is `inflateInit2_` (window bits -15 for raw data,
  /// 31 for gzip).
  ///
  /// - Parameter wrapper: Raw DEFLATE or gzip.
  /// - Throws: ``PackagingError`` (`decompressor-failed`) when zlib cannot start.
  init(_ wrapper: Wrapper) throws {
    stream = .allocate(capacity: 1)
    stream.initialize(to: z_stream())
    let windowBits: CInt = wrapper == .raw ? -MAX_WBITS : MAX_WBITS + 16
    let status = inflateInit2_(
      stream, windowBits, zlibVersion(), CInt(MemoryLayout<z_stream>.size))
    do {
      try Zlib.check(status, message: stream.pointee.msg, "starting the decompressor")
    } catch {
      stream.deinitialize(count: 1)
      stream.deallocate()
      throw error
    }
    initialized = true
  }

  deinit {
    if initialized { inflateEnd(stream) }
    stream.deinitialize(count: 1)
    stream.deallocate()
  }

  /// Readies the stream for a new member (gzip) or entry, keeping its memory.
  ///
  /// The corresponding C function is `inflateReset`.
  ///
  /// - Throws: ``PackagingError`` when zlib refuses.
  func reset() throws {
    try Zlib.check(inflateReset(stream), message: stream.pointee.msg, "restarting the decompressor")
  }

  /// Decodes as much of `input` as fits into `output`.
  ///
  /// The corresponding C function is `inflate` with `Z_NO_FLUSH`.
  ///
  /// - Parameters:
  ///   - input: Compressed bytes.
  ///   - output: Where decoded bytes go.
  ///   - operation: What is being read, for messages.
  /// - Returns: What was taken and written, and whether the stream ended.
  /// - Throws: ``PackagingError`` (`corrupt-archive`) for damaged data.
  func inflate(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
    operation: @autoclosure () -> String
  ) throws -> Step {
    let inputCount = min(input.count, Int(UInt32.max))
    let outputCount = min(output.count, Int(UInt32.max))
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = uInt(inputCount)
    stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
    stream.pointee.avail_out = uInt(outputCount)
    let status = CZlib.inflate(stream, Z_NO_FLUSH)
    let step = Step(
      consumed: inputCount - Int(stream.pointee.avail_in),
      produced: outputCount - Int(stream.pointee.avail_out), ended: status == Z_STREAM_END)
    stream.pointee.next_in = nil
    stream.pointee.next_out = nil
    try Zlib.check(status, message: stream.pointee.msg, operation())
    return step
  }
}
