internal import CLibArchive
import FolioSystem
import FoundationEssentials
import Glibc

/// An archive file under a read handle, read and seeked with Folio's own calls.
///
/// It keeps the errno of a failed call for the handle to report, and counts
/// what libarchive took from the file two ways: all bytes read (a format
/// that reads one stretch twice counts it twice) and the furthest offset
/// reached (the file's distinct bytes consumed, which re-reading cannot
/// inflate). The expansion budgets use both.
final class FileInput: ArchiveReadInput {
  private let descriptor: Int32
  private let name: String
  private let buffer: UnsafeMutableRawBufferPointer
  private var position: Int64 = 0
  private var failure: (any Error)?
  /// All bytes read so far.
  private(set) var bytesRead: Int64 = 0
  /// The furthest offset reached by a read.
  private(set) var furthestOffset: Int64 = 0

  /// Takes ownership of an open descriptor.
  ///
  /// - Parameters:
  ///   - descriptor: The file, open for reading; closed in `deinit`.
  ///   - name: The file's name for messages.
  init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.name = name
    buffer = .allocate(byteCount: ByteSourceChunk.size, alignment: 16)
  }

  deinit {
    close(descriptor)
    buffer.deallocate()
  }

  var canSkip: Bool { true }
  var canSeek: Bool { true }

  func read(into start: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
    let count = SystemCall.retryingInterrupts {
      Glibc.read(descriptor, buffer.baseAddress, buffer.count)
    }
    if count < 0 {
      failure = PackagingError(
        .archiveUnreadable, "cannot read '\(name)'", cause: SystemError(errno: errno))
      return -1
    }
    start.pointee = UnsafeRawPointer(buffer.baseAddress)
    position += Int64(count)
    bytesRead += Int64(count)
    furthestOffset = max(furthestOffset, position)
    return count
  }

  func seek(to offset: Int64, whence: CInt) -> Int64 {
    let result = lseek(descriptor, off_t(offset), whence)
    if result < 0 {
      failure = PackagingError(
        .archiveUnreadable, "cannot seek in '\(name)'", cause: SystemError(errno: errno))
      return -1
    }
    position = Int64(result)
    return Int64(result)
  }

  func skip(_ request: Int64) -> Int64 {
    let result = lseek(descriptor, off_t(request), SEEK_CUR)
    guard result >= 0 else {
      failure = PackagingError(
        .archiveUnreadable, "cannot seek in '\(name)'", cause: SystemError(errno: errno))
      return -1
    }
    position = Int64(result)
    return request
  }

  func takeError() -> (any Error)? {
    defer { failure = nil }
    return failure
  }
}
