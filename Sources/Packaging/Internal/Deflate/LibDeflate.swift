internal import CLibDeflate

/// The one place libdeflate's results are judged, and its CRC-32.
///
/// libdeflate works on whole buffers only: no streaming, no preset
/// dictionary, so it cannot continue one deflate stream across chunks. Folio
/// uses it where a whole buffer is at hand (entries up to the chunk size) and
/// zlib (``DeflateStream``) where a stream is cut into chunks. Measured on the
/// benchmark corpus's 20,000 pages (1–8 KiB each, CPU time of one thread): at
/// level 6 libdeflate compresses at 52 MB/s to 26.6% against zlib's 35 MB/s to
/// 26.8%; at level 1, 125 against 79 MB/s. Its CRC-32 (carry-less multiply
/// where the processor has it) runs about three times as fast as zlib's.
enum LibDeflate {
  /// Checks a decompression result.
  ///
  /// - Parameters:
  ///   - result: What `libdeflate_deflate_decompress_ex` returned.
  ///   - operation: What was attempted, naming the entry.
  /// - Throws: ``PackagingError/Code/corruptArchive`` for bad data,
  ///   ``PackagingError/Code/compressorFailed`` when the output did not fit.
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
  /// libdeflate's, not zlib's: it uses the processor's carry-less multiply, and measured
  /// 10 GB/s against zlib 1.2.13's 3.5 GB/s here (256 MiB, three runs), which is a fifth
  /// of expanding a gigabyte of stored media. zlib keeps `crc32_combine`, which libdeflate
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
