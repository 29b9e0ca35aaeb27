import FolioSystem
import FoundationEssentials
import Glibc

/// An archive file opened read-only, read at offsets with `pread`.
///
/// It never moves a shared file position, so one value can be shared by any
/// number of threads, each reading its own ranges (the zip reader's entries
/// are read this way, one ``ZipEntryReader`` per thread). The descriptor is
/// closed when the value is deinitialised.
final class ArchiveFile: Sendable {
  /// The name used in messages (the path, or `standard input`).
  let name: String
  /// The file's size in bytes when it was opened.
  let size: Int64
  /// Whether the pages ``copyBytes(at:count:to:targetOffset:targetName:)`` reads are let go
  /// of from the page cache once copied: for a file about to be replaced, whose pages the
  /// kernel would otherwise drop when it is deleted, at the end of the run.
  let forgetsCopiedBytes: Bool
  private let descriptor: Int32

  /// Opens a file by path.
  ///
  /// - Parameters:
  ///   - path: The file's path.
  ///   - forgetsCopiedBytes: Whether copied bytes' pages leave the page cache once copied.
  /// - Throws: ``PackagingError`` (`archive-unreadable`) when it cannot be opened or is
  ///   not a regular file.
  convenience init(path: String, forgetsCopiedBytes: Bool = false) throws {
    let descriptor = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    guard descriptor >= 0 else {
      throw PackagingError(
        .archiveUnreadable, "cannot open '\(path)'", cause: SystemError(errno: errno))
    }
    try self.init(descriptor: descriptor, name: path, forgetsCopiedBytes: forgetsCopiedBytes)
  }

  /// Takes ownership of an open descriptor on a regular file.
  ///
  /// - Parameters:
  ///   - descriptor: Open for reading; closed in `deinit` (and on a throw).
  ///   - name: The file's name for messages.
  ///   - forgetsCopiedBytes: Whether copied bytes' pages leave the page cache once copied.
  /// - Throws: ``PackagingError`` (`archive-unreadable`) when it is not a regular file.
  init(descriptor: Int32, name: String, forgetsCopiedBytes: Bool = false) throws {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else {
      let code = errno
      close(descriptor)
      throw PackagingError(
        .archiveUnreadable, "cannot read '\(name)'", cause: SystemError(errno: code))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      throw PackagingError(.archiveUnreadable, "'\(name)' is not a regular file")
    }
    self.descriptor = descriptor
    self.name = name
    self.forgetsCopiedBytes = forgetsCopiedBytes
    size = Int64(info.st_size)
  }

  deinit { close(descriptor) }

  /// A new descriptor open on the same file, from offset 0, for a reader that reads it
  /// front to back (`read` moves a position that `pread` does not share).
  ///
  /// - Returns: The descriptor, or -1 with `errno` set.
  func duplicateDescriptor() -> Int32 {
    let path = "/proc/self/fd/\(descriptor)"
    let reopened = SystemCall.retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
    if reopened >= 0 { return reopened }
    let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
    if duplicate >= 0 { lseek(duplicate, 0, SEEK_SET) }  // shared offset: this file uses pread only
    return duplicate
  }

  /// Fills `buffer` from `offset`, stopping early only at the end of the file.
  ///
  /// - Parameters:
  ///   - buffer: Where the bytes go.
  ///   - offset: Where to start reading.
  /// - Returns: How many bytes were read (less than the buffer at the end of the file).
  /// - Throws: ``PackagingError`` (`archive-unreadable`) when a read fails.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    var filled = 0
    while filled < buffer.count {
      let got = SystemCall.retryingInterrupts {
        pread(descriptor, base + filled, buffer.count - filled, off_t(offset) + off_t(filled))
      }
      if got < 0 {
        throw PackagingError(
          .archiveUnreadable, "cannot read '\(name)'", cause: SystemError(errno: errno))
      }
      if got == 0 { break }
      filled += got
    }
    return filled
  }

  /// Copies `count` bytes at `offset` to another file, in the kernel when the two file
  /// systems allow it (`copy_file_range`), else through a buffer.
  ///
  /// - Parameters:
  ///   - offset: Where to start reading.
  ///   - count: How many bytes.
  ///   - target: A file open for writing.
  ///   - targetOffset: Where to write in it, or `nil` for its file position (then moved
  ///     past the bytes; with an offset, the position does not move).
  ///   - targetName: Its name, for messages.
  /// - Returns: How many bytes were copied: fewer than `count` only when this file ends
  ///   first.
  /// - Throws: ``PackagingError`` naming both files when a read or a write fails.
  func copyBytes(
    at offset: Int64, count: Int64, to target: Int32, targetOffset: Int64? = nil,
    targetName: String
  ) throws -> Int64 {
    let end = offset + count
    var position = offset
    var at = targetOffset
    while position < end {
      let copied = SystemCall.retryingInterrupts {
        LinuxCalls.copyFileRange(
          from: descriptor, offset: &position, to: target, targetOffset: &at,
          count: Int(min(end - position, 1 << 30)))
      }
      if copied < 0, [ENOSYS, EXDEV, EINVAL, EOPNOTSUPP, EBADF].contains(errno) {
        position = try copyThroughBuffer(
          from: position, to: end, target: target, targetOffset: at, targetName: targetName)
        break
      }
      if copied < 0 { throw copyFailure(into: targetName, errno: errno) }
      if copied == 0 { break }
    }
    if forgetsCopiedBytes {
      LinuxCalls.dropCachedPages(descriptor, offset: offset, count: position - offset)
    }
    return position - offset
  }

  /// The rest of a ``copyBytes(at:count:to:targetOffset:targetName:)`` the kernel would not
  /// make, with `pread` and `write` (or `pwrite`, at an offset) through one buffer.
  ///
  /// - Returns: Where the copy stopped: `end`, or this file's end when it comes first.
  private func copyThroughBuffer(
    from start: Int64, to end: Int64, target: Int32, targetOffset: Int64?, targetName: String
  ) throws -> Int64 {
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: Int(min(end - start, 1 << 20)), alignment: 16)
    defer { buffer.deallocate() }
    var position = start
    while position < end {
      let wanted = Int(min(Int64(buffer.count), end - position))
      let got = SystemCall.retryingInterrupts {
        pread(descriptor, buffer.baseAddress!, wanted, off_t(position))
      }
      if got < 0 { throw copyFailure(into: targetName, errno: errno) }
      if got == 0 { break }
      let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<got])
      let failure =
        targetOffset.map {
          SystemCall.writeAll(target, bytes, at: $0 + (position - start))
        } ?? SystemCall.writeAll(target, bytes)
      if failure != 0 { throw copyFailure(into: targetName, errno: failure) }
      position += Int64(got)
    }
    return position
  }

  private func copyFailure(into targetName: String, errno code: Int32) -> PackagingError {
    PackagingError.system("cannot copy entries from '\(name)' into '\(targetName)'", errno: code)
  }

  /// Reads exactly `count` bytes at `offset`, or `nil` when they pass the end of the file.
  ///
  /// - Parameters:
  ///   - offset: Where to start.
  ///   - count: How many bytes.
  /// - Returns: The bytes, or `nil` when `[offset, offset + count)` is not inside the file.
  /// - Throws: ``PackagingError`` when the read itself fails.
  func bytes(at offset: Int64, count: Int) throws -> [UInt8]? {
    guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else {
      return nil
    }
    var bytes = [UInt8](repeating: 0, count: count)
    let got = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
    return got == count ? bytes : nil
  }
}
