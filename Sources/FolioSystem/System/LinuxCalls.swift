import Glibc

/// Linux system calls that Swift's `Glibc` module hides behind `_GNU_SOURCE`,
/// found at run time (glibc 2.28 and later have them all).
package enum LinuxCalls {
  private typealias RenameAt2 =
    @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
  private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
  private typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
  private typealias SyncFS = @convention(c) (Int32) -> Int32
  private typealias CopyFileRange =
    @convention(c) (
      Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32
    ) -> Int

  /// `renameat2`'s flag: fail with `EEXIST` instead of replacing the target.
  package static let renameNoReplace: UInt32 = 1
  /// `renameat2`'s flag: swap source and target atomically.
  package static let renameExchange: UInt32 = 2

  nonisolated(unsafe) private static let library = dlopen(nil, RTLD_NOW)
  private static let renameAt2: RenameAt2? = dlsym(library, "renameat2").map {
    unsafeBitCast($0, to: RenameAt2.self)
  }
  private static let syncFileRange: SyncFileRange? = dlsym(library, "sync_file_range").map {
    unsafeBitCast($0, to: SyncFileRange.self)
  }
  private static let mallocOption: MallocOption? = dlsym(library, "mallopt").map {
    unsafeBitCast($0, to: MallocOption.self)
  }
  private static let syncFS: SyncFS? = dlsym(library, "syncfs").map {
    unsafeBitCast($0, to: SyncFS.self)
  }

  private static let copyRange: CopyFileRange? = dlsym(library, "copy_file_range").map {
    unsafeBitCast($0, to: CopyFileRange.self)
  }

  /// Whether ``syncFileSystem(_:)`` is there to call.
  package static var canSyncFileSystem: Bool { syncFS != nil }

  /// Writes everything of one file system to disk (data and metadata, every process's)
  /// and waits until it is there.
  ///
  /// The corresponding C function is `syncfs`.
  ///
  /// - Parameter descriptor: Any file or folder open on that file system.
  /// - Returns: 0, or -1 with `errno` set (`ENOSYS` when the call is missing, `EIO`…).
  package static func syncFileSystem(_ descriptor: Int32) -> Int32 {
    guard let syncFS else {
      errno = ENOSYS
      return -1
    }
    return syncFS(descriptor)
  }

  /// Copies bytes from one file to the end of another inside the kernel, without passing
  /// them through this process (on a file system that shares blocks, without copying them
  /// at all).
  ///
  /// The corresponding C function is `copy_file_range`, reading at an offset and writing
  /// at the target's file position, which it moves, or at an offset of the target given.
  ///
  /// - Parameters:
  ///   - source: A file open for reading.
  ///   - offset: Where to read; moved past the bytes copied.
  ///   - target: A file open for writing.
  ///   - targetOffset: Where to write, moved past the bytes copied, or `nil` for the target's
  ///     file position.
  ///   - count: The most bytes to copy.
  /// - Returns: How many bytes were copied (0 at the source's end, maybe fewer than
  ///   asked), or -1 with `errno` set (`ENOSYS` when the call is missing; `EXDEV`,
  ///   `EINVAL` or `EOPNOTSUPP` when these two files cannot be copied between this way).
  package static func copyFileRange(
    from source: Int32, offset: inout Int64, to target: Int32, targetOffset: inout Int64?,
    count: Int
  ) -> Int {
    guard let copyRange else {
      errno = ENOSYS
      return -1
    }
    guard var at = targetOffset else { return copyRange(source, &offset, target, nil, count, 0) }
    defer { targetOffset = at }
    return copyRange(source, &offset, target, &at, count, 0)
  }

  /// Renames with `RENAME_NOREPLACE` or `RENAME_EXCHANGE`.
  ///
  /// The corresponding C function is `renameat2`.
  ///
  /// - Parameters:
  ///   - source: The path to move.
  ///   - target: Where to move it.
  ///   - flags: ``renameNoReplace`` or ``renameExchange``.
  /// - Returns: 0, or -1 with `errno` set (`ENOSYS` when the call is missing,
  ///   `EINVAL` when the file system does not support the flag).
  package static func rename(_ source: String, _ target: String, flags: UInt32) -> Int32 {
    guard let renameAt2 else {
      errno = ENOSYS
      return -1
    }
    return renameAt2(AT_FDCWD, source, AT_FDCWD, target, flags)
  }

  /// Starts writing a file's dirty pages to disk without waiting for them, so a later
  /// `fdatasync` finds them written or on their way.
  ///
  /// The corresponding C function is `sync_file_range` with `SYNC_FILE_RANGE_WRITE`; it
  /// makes nothing durable by itself. Without it, nothing is done.
  ///
  /// - Parameter descriptor: A file open for writing.
  package static func startWriteback(_ descriptor: Int32) {
    startWriteback(descriptor, offset: 0, count: 0)
  }

  /// Starts writing a stretch of a file's dirty pages to disk without waiting for them.
  ///
  /// The corresponding C function is `sync_file_range` with `SYNC_FILE_RANGE_WRITE`; it
  /// makes nothing durable by itself. Without it, nothing is done.
  ///
  /// - Parameters:
  ///   - descriptor: A file open for writing.
  ///   - offset: Where the stretch starts.
  ///   - count: Its length in bytes; 0 reaches the end of the file.
  package static func startWriteback(_ descriptor: Int32, offset: Int64, count: Int64) {
    _ = syncFileRange?(descriptor, offset, count, 2)  // SYNC_FILE_RANGE_WRITE
  }

  /// Lets the kernel drop a stretch of a file's cached pages: for bytes read once from a
  /// file about to be deleted, whose pages would otherwise be dropped all at once when it
  /// is, at the end of the run.
  ///
  /// The corresponding C function is `posix_fadvise` with `POSIX_FADV_DONTNEED`, which
  /// changes no data; a failure is not reported, the pages then staying cached.
  ///
  /// - Parameters:
  ///   - descriptor: An open file.
  ///   - offset: Where the stretch starts.
  ///   - count: Its length in bytes.
  package static func dropCachedPages(_ descriptor: Int32, offset: Int64, count: Int64) {
    _ = posix_fadvise(descriptor, off_t(offset), off_t(count), POSIX_FADV_DONTNEED)
  }

  /// Fixes the size from which malloc gives a block pages of its own, returned to the
  /// system when the block is freed.
  ///
  /// glibc starts at 128 KiB and raises the threshold to the size of each such block
  /// freed, so that a program allocating and freeing large buffers over and over keeps
  /// them in its heap. Folio's large blocks are few and live long (a zip's directory, the
  /// expansion's ledger, its check's ledger before it); once the check's were freed, the
  /// expansion's would go into the heap beside memory that was not given back, raising
  /// the peak. A fixed threshold also stops glibc's dynamic trimming.
  ///
  /// The corresponding C function is `mallopt` with `M_MMAP_THRESHOLD`.
  ///
  /// - Parameter bytes: The threshold.
  /// - Returns: Whether malloc took it.
  @discardableResult
  package static func fixMallocMapThreshold(_ bytes: Int32) -> Bool {
    (mallocOption?(-3, bytes) ?? 0) == 1  // M_MMAP_THRESHOLD
  }
}
