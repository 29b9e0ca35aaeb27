import FolioSystem
import FoundationEssentials
import Glibc

/// A file read front to back with `read(2)`: a regular file, or a pipe
/// (`folio expand -` reads standard input this way).
///
/// It counts the bytes it has handed on, which is what a compressed stream's
/// ratio is measured against.
final class FileByteSource: ByteSource {
  /// The name used in messages.
  let name: String
  /// Bytes read so far.
  private(set) var bytesRead: Int64 = 0
  /// The most bytes to read in all, and the error past them (see
  /// ``BoundedDecodedSource``, which moves it on as decoded bytes come out).
  var readLimit: (bytes: Int64, error: PackagingError)?
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  private let buffer: UnsafeMutableRawBufferPointer

  /// Reads an open descriptor.
  ///
  /// - Parameters:
  ///   - descriptor: Open for reading.
  ///   - name: The file's name for messages.
  ///   - ownsDescriptor: Whether to close it in `deinit` (not for standard input).
  init(descriptor: Int32, name: String, ownsDescriptor: Bool) {
    self.descriptor = descriptor
    self.name = name
    self.ownsDescriptor = ownsDescriptor
    buffer = .allocate(byteCount: ByteSourceChunk.size, alignment: 16)
  }

  deinit {
    if ownsDescriptor { close(descriptor) }
    buffer.deallocate()
  }

  func next() throws -> UnsafeRawBufferPointer? {
    let count = SystemCall.retryingInterrupts { read(descriptor, buffer.baseAddress, buffer.count) }
    if count < 0 {
      throw PackagingError(
        .archiveUnreadable, "cannot read '\(name)'", cause: SystemError(errno: errno))
    }
    if count == 0 { return nil }
    bytesRead += Int64(count)
    if let readLimit, bytesRead > readLimit.bytes { throw readLimit.error }
    return UnsafeRawBufferPointer(start: buffer.baseAddress, count: count)
  }

  /// Whether ``skip(_:)`` can move ahead without reading (a regular file, not a pipe).
  var canSkip: Bool {
    var info = stat()
    return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
  }

  /// Moves ahead without reading (libarchive skipping entry data it does not need).
  ///
  /// - Parameter count: Bytes to skip.
  /// - Returns: Bytes skipped.
  /// - Throws: ``PackagingError`` (`archive-unreadable`) when the seek fails.
  func skip(_ count: Int64) throws -> Int64 {
    guard lseek(descriptor, off_t(count), SEEK_CUR) >= 0 else {
      throw PackagingError(
        .archiveUnreadable, "cannot seek in '\(name)'", cause: SystemError(errno: errno))
    }
    bytesRead += count
    return count
  }
}
