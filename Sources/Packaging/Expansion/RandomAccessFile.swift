import Foundation

/// A file opened read-only for reads at offsets, with one cached window.
///
/// The zip pre-check reads the end record, the central directory and every
/// local header through it; the window keeps consecutive small reads (one
/// central-directory record after another) to one `pread` per window.
final class RandomAccessFile {
  /// The bytes one `pread` fills when a read misses the window.
  static let windowSize = 256 << 10

  /// The file's size in bytes when it was opened.
  let size: Int64
  private let descriptor: Int32
  private let path: String
  private var window: [UInt8] = []
  private var windowStart: Int64 = 0

  /// Opens a file for reading.
  ///
  /// - Parameter path: The file's path.
  /// - Throws: ``PackagingError`` with code `archive-unreadable`.
  init(path: String) throws {
    self.path = path
    descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw PackagingError(
        .archiveUnreadable, "cannot open '\(path)'", cause: SystemError(errno: errno))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw PackagingError(
        .archiveUnreadable, "cannot read '\(path)'", cause: SystemError(errno: code))
    }
    size = Int64(info.st_size)
  }

  deinit { close(descriptor) }

  /// Reads exactly `count` bytes at `offset`, or `nil` when they pass the end of the file.
  ///
  /// - Parameters:
  ///   - offset: Where to start.
  ///   - count: How many bytes.
  /// - Returns: The bytes, or `nil` when `[offset, offset + count)` is not inside the file.
  /// - Throws: ``PackagingError`` when the read itself fails.
  func bytes(at offset: Int64, count: Int) throws -> ArraySlice<UInt8>? {
    guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
      return nil
    }
    let windowEnd = windowStart + Int64(window.count)
    if offset < windowStart || offset + Int64(count) > windowEnd {
      try fill(at: offset, count: max(count, Self.windowSize))
    }
    let start = Int(offset - windowStart)
    return window[start..<(start + count)]
  }

  private func fill(at offset: Int64, count: Int) throws {
    let wanted = Int(min(Int64(count), size - offset))
    var buffer = [UInt8](repeating: 0, count: wanted)
    var filled = 0
    while filled < wanted {
      let got = buffer.withUnsafeMutableBytes { raw in
        SystemCall.retryingInterrupts {
          pread(
            descriptor, raw.baseAddress! + filled, wanted - filled, off_t(offset) + off_t(filled))
        }
      }
      if got < 0 {
        throw PackagingError(
          .archiveUnreadable, "cannot read '\(path)'", cause: SystemError(errno: errno))
      }
      if got == 0 { break }
      filled += got
    }
    window = Array(buffer[0..<filled])
    windowStart = offset
  }
}

/// A failed system call: its `errno` and the system's text for it.
struct SystemError: Error, Sendable, CustomStringConvertible {
  /// The `errno` value.
  let errno: Int32

  /// Creates an error from an `errno` value.
  ///
  /// - Parameter errno: The value.
  init(errno: Int32) { self.errno = errno }

  /// The system's text, such as `No such file or directory`.
  var description: String { String(cString: strerror(errno)) }
}
