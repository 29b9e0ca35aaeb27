internal import CLibDeflate

/// Owns one libdeflate decompressor (`struct libdeflate_decompressor *`), freed in `deinit`.
///
/// It inflates a whole raw deflate stream into a buffer of known size in one
/// call; streams too large for one buffer go through zlib. One thread uses it at a time;
/// ``DeflateDecompressorPool`` hands it from one to the next (hence `@unchecked Sendable`).
final class DeflateDecompressor: @unchecked Sendable {
  private let pointer: OpaquePointer

  /// Creates a decompressor.
  ///
  /// The corresponding C function is `libdeflate_alloc_decompressor`.
  ///
  /// - Throws: ``PackagingErrorDomain/Code/compressorFailed`` when libdeflate cannot allocate one.
  init() throws {
    guard let pointer = libdeflate_alloc_decompressor() else {
      throw PackagingError(.compressorFailed, "cannot allocate a deflate decompressor")
    }
    self.pointer = pointer
  }

  deinit { libdeflate_free_decompressor(pointer) }

  /// Inflates one whole raw deflate stream.
  ///
  /// The corresponding C function is `libdeflate_deflate_decompress_ex`.
  ///
  /// - Parameters:
  ///   - input: The compressed bytes (the stream may end before them).
  ///   - output: Where the data goes; its size is the most the stream may hold.
  ///   - name: The entry, for messages.
  /// - Returns: The compressed bytes the stream took and the bytes it gave.
  /// - Throws: ``PackagingErrorDomain/Code/corruptArchive`` for bad or oversized data.
  func decompress(
    _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
    name: @autoclosure () -> String
  ) throws -> (consumed: Int, produced: Int) {
    var consumed = 0
    var produced = 0
    let result = libdeflate_deflate_decompress_ex(
      pointer, input.baseAddress, input.count, output.baseAddress, output.count, &consumed,
      &produced)
    try LibDeflate.check(result, "inflating \(name())")
    return (consumed, produced)
  }
}
