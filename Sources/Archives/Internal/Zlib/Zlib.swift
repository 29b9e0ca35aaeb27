internal import CZlib

/// The one place zlib return codes are judged, and zlib's CRC-32 and its combination.
///
/// `Z_OK` and `Z_STREAM_END` are handed back; `Z_BUF_ERROR` (no progress was
/// possible) is handed back too, for the caller to decide whether more input
/// was due. A damaged stream (`Z_DATA_ERROR`, `Z_NEED_DICT`) is
/// ``PackagingErrorDomain/Code/corruptArchive`` with zlib's own words ("invalid
/// distance too far back", "incorrect data check"); zlib failing to run at
/// all (`Z_MEM_ERROR`, `Z_STREAM_ERROR`, `Z_VERSION_ERROR`) is
/// ``PackagingErrorDomain/Code/decompressorFailed``, or
/// ``PackagingErrorDomain/Code/compressorFailed`` when compressing.
///
/// zlib is also Folio's streaming deflate (``DeflateStream``): a big file or a
/// tar stream is cut into chunks compressed in parallel, each primed with the
/// 32 KiB before it as a preset dictionary and ended with a sync flush, so the
/// chunks join into one deflate stream (as pigz does). libdeflate
/// (``LibDeflate``) has neither a dictionary nor a flush, and chunks compressed
/// without a dictionary lose far more ratio on text than zlib's 128 KiB chunks
/// primed with one.
enum Zlib {
  /// Checks a status returned by `inflate`, `deflate` or their `…Init2_`, `…Reset`
  /// and `deflateSetDictionary`.
  ///
  /// - Parameters:
  ///   - status: The call's return value.
  ///   - message: zlib's `msg` for the stream, if it set one.
  ///   - operation: What was being read or written, naming the archive, entry
  ///     or file (`reading entry 'a.txt' of 'x.zip'`).
  ///   - code: The code for zlib failing to run (``PackagingErrorDomain/Code/compressorFailed``
  ///     when compressing).
  /// - Returns: `Z_OK`, `Z_STREAM_END` or `Z_BUF_ERROR`.
  /// - Throws: ``PackagingError`` for every other status.
  @discardableResult
  static func check(
    _ status: CInt, message: UnsafePointer<CChar>?, _ operation: @autoclosure () -> String,
    failing code: PackagingError.Code = .decompressorFailed
  ) throws -> CInt {
    switch status {
    case Z_OK, Z_STREAM_END, Z_BUF_ERROR:
      return status
    case Z_DATA_ERROR, Z_NEED_DICT:
      let failure = ZlibFailure(status: status, message: message)
      throw PackagingError(.corruptArchive, "\(operation()): \(failure.message)", cause: failure)
    default:
      let failure = ZlibFailure(status: status, message: message)
      throw PackagingError(
        code, "\(operation()): zlib failed: \(failure.message)", cause: failure)
    }
  }

  /// The CRC-32 of two byte runs one after the other, from the CRC-32 of each.
  ///
  /// The corresponding C function is `crc32_combine` (`z_off_t` is 64 bits on Linux).
  ///
  /// - Parameters:
  ///   - first: The CRC-32 of the first run.
  ///   - second: The CRC-32 of the second run.
  ///   - secondLength: The second run's length.
  /// - Returns: The CRC-32 of both.
  static func crc32Combine(_ first: UInt32, _ second: UInt32, secondLength: Int64) -> UInt32 {
    UInt32(truncatingIfNeeded: crc32_combine(UInt(first), UInt(second), Int(secondLength)))
  }
}

/// What zlib said about a failed call: its status and message.
struct ZlibFailure: Error, Sendable, CustomStringConvertible {
  /// The return code (`Z_DATA_ERROR`, `Z_MEM_ERROR`, …).
  var status: CInt
  /// The stream's `msg`, or the status's name when zlib set none.
  var message: String

  init(status: CInt, message: UnsafePointer<CChar>?) {
    self.status = status
    self.message = message.map { String(cString: $0) } ?? Self.name(of: status)
  }

  static func name(of status: CInt) -> String {
    switch status {
    case Z_DATA_ERROR: "Z_DATA_ERROR"
    case Z_NEED_DICT: "Z_NEED_DICT (a preset dictionary, which archives never use)"
    case Z_MEM_ERROR: "Z_MEM_ERROR (out of memory)"
    case Z_STREAM_ERROR: "Z_STREAM_ERROR"
    case Z_VERSION_ERROR: "Z_VERSION_ERROR"
    case Z_BUF_ERROR: "Z_BUF_ERROR"
    default: "status \(status)"
    }
  }

  var description: String { "zlib \(Self.name(of: status))" }
}
