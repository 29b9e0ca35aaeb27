internal import CLibDeflate

/// Owns one libdeflate compressor (`struct libdeflate_compressor *`), freed in `deinit`.
///
/// A compressor is used by one thread at a time; each worker has its own.
final class DeflateCompressor {
  private let pointer: OpaquePointer
  /// The compression level, 1–12 (9 and below are zlib's levels).
  let level: Int

  /// Creates a compressor.
  ///
  /// The corresponding C function is `libdeflate_alloc_compressor`.
  ///
  /// - Parameter level: The compression level, 0–12.
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when libdeflate cannot allocate one.
  init(level: Int) throws {
    guard let pointer = libdeflate_alloc_compressor(CInt(level)) else {
      throw PackagingError(
        .compressorFailed, "cannot allocate a deflate compressor at level \(level)")
    }
    self.pointer = pointer
    self.level = level
  }

  deinit { libdeflate_free_compressor(pointer) }

  /// Compresses a whole buffer into one raw deflate stream.
  ///
  /// The corresponding C function is `libdeflate_deflate_compress`.
  ///
  /// - Parameters:
  ///   - input: The bytes to compress.
  ///   - output: Where the stream goes; pass fewer bytes than `input` to get
  ///     `nil` whenever compressing does not save anything.
  /// - Returns: The stream's length, or `nil` when it does not fit in `output`.
  func compress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    -> Int?
  {
    guard let target = output.baseAddress, output.count > 0 else { return nil }
    let count = libdeflate_deflate_compress(
      pointer, input.baseAddress, input.count, target, output.count)
    return count == 0 ? nil : count
  }
}
