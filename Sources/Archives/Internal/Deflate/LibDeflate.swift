internal import CLibDeflate

/// The one place libdeflate's results are judged, and its CRC-32.
///
/// libdeflate works on whole buffers only: no streaming, no preset
/// dictionary, so it cannot continue one deflate stream across chunks. Folio
/// uses it where a whole buffer is at hand (entries up to the chunk size) and
/// zlib (``DeflateStream``) where a stream is cut into chunks: on whole buffers
/// libdeflate compresses faster than zlib at the same level, to a slightly
/// smaller size, and its CRC-32 (carry-less multiply where the processor has
/// it) is several times as fast (docs/PERFORMANCE.md).
enum LibDeflate {
  /// Checks a decompression result.
  ///
  /// - Parameters:
  ///   - result: What `libdeflate_deflate_decompress_ex` returned.
  ///   - operation: What was attempted, naming the entry.
  /// - Throws: ``PackagingErrorDomain/Code/corruptArchive`` for bad data,
  ///   ``PackagingErrorDomain/Code/compressorFailed`` when the output did not fit.
  static func check(_ result: libdeflate_result, _ operation: @autoclosure () -> String) throws {
    switch result {
    case LIBDEFLATE_SUCCESS:
      return
    case LIBDEFLATE_BAD_DATA:
      throw PackagingError(.corruptArchive, "\(operation()): the deflate data is corrupt")
    case LIBDEFLATE_SHORT_OUTPUT:
      throw PackagingError(.corruptArchive, "\(operation()): the deflate data ends early")
    case LIBDEFLATE_INSUFFICIENT_SPACE:
      throw PackagingError(
        .corruptArchive, "\(operation()): the deflate data holds more than its declared size")
    default:
      throw PackagingError(
        .compressorFailed, "\(operation()): libdeflate returned \(result.rawValue)")
    }
  }

  /// Continues a CRC-32 over more bytes: every CRC-32 Folio computes (zip entries read and
  /// written, gzip members, Info-ZIP's Unicode name fields).
  ///
  /// libdeflate's, not zlib's: it uses the processor's carry-less multiply, which matters
  /// when expanding large stored media, where the CRC is much of the work. zlib keeps
  /// `crc32_combine`, which libdeflate
  /// lacks. The corresponding C function is `libdeflate_crc32`.
  ///
  /// - Parameters:
  ///   - crc: The checksum so far (0 to start).
  ///   - bytes: The next bytes.
  /// - Returns: The checksum including `bytes`.
  static func crc32(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
    return libdeflate_crc32(crc, base, bytes.count)
  }
}
