import FolioSystem
import Glibc

/// Makes the files and folders an expansion wrote durable before the move, without
/// waiting long for other processes' data.
///
/// Two ways, chosen by measurement (docs/PERFORMANCE.md, "Design decisions"):
///
/// - **The file system at once** (`syncfs`), when the machine holds little unwritten
///   data besides the expansion's own (at most ``otherDataLimit``, from
///   ``UnwrittenData``). Files are only closed as they are written; at the end one call
///   writes them all, in the large merged requests the kernel's own writeback makes,
///   where flushing each file makes a request of its own (a virtio notification each, in
///   a VM) and every `fdatasync` flushes the disk's cache.
/// - **Each file**, when other processes have more unwritten data than that at the
///   start (each file is flushed as soon as it is written, on ``concurrency`` threads:
///   concurrent flushes share the journal's commits, where one after another waits for a
///   commit each), or only at the end (the staging tree is walked and each file flushed
///   the same way, then each folder), so `syncfs` never waits for much besides them.
///
/// Files that their owner cannot read (mode `0o000`) are flushed as they are written
/// whatever the way: the walk could not open them again.
final class FileFlusher: @unchecked Sendable {
  /// How the files written are made durable.
  enum Way: Equatable {
    /// Each file as it is written, each folder as it is finished.
    case eachFile
    /// Nothing until the end, then ``Settlement``.
    case atTheEnd
  }

  /// How an ``Way/atTheEnd`` flush ended.
  enum Settlement: Equatable {
    /// One `syncfs`.
    case fileSystem
    /// The staging tree walked, each file and folder flushed.
    case eachFile
  }

  /// How many flushes run at once.
  static let concurrency = 32
  /// The most descriptors handed over and not yet closed.
  static let pendingLimit = 256
  /// The most unwritten data of other processes a `syncfs` may wait for: little enough
  /// that waiting for it stays a fraction of a second on an ordinary disk.
  static let otherDataLimit: Int64 = 64 << 20

  /// How the files are flushed, decided when the flusher is made.
  let way: Way
  /// How the end went, once ``settle(root:name:writtenBytes:)`` decided it.
  private(set) var settlement: Settlement?
  /// How many files and folders were flushed one by one (`fdatasync`, `fsync`).
  var flushedOneByOne: Int { lock.withLock { flushedCount } }

  private let unwrittenBytes: @Sendable () -> Int64?
  private var pool: WorkerPool<Void>?
  private let lock = ConditionLock()
  private var pending = 0
  private var flushedCount = 0
  private var failure: PackagingError?
  private var closed = false
  /// The staging root, for the `syncfs` at the end.
  private var fileSystemDescriptor: Int32 = -1
  private var fileSystemName = ""

  /// Decides the way from the machine's unwritten data now.
  ///
  /// - Parameter unwrittenBytes: What reads the machine's unwritten data
  ///   (``UnwrittenData/bytes()`` unless a test decides).
  init(unwrittenBytes: @escaping @Sendable () -> Int64? = UnwrittenData.bytes) {
    self.unwrittenBytes = unwrittenBytes
    let quiet = LinuxCalls.canSyncFileSystem && (unwrittenBytes() ?? .max) <= Self.otherDataLimit
    way = quiet ? .atTheEnd : .eachFile
    if way == .eachFile { pool = WorkerPool(threads: Self.concurrency) { () } }
  }

  deinit {
    abandon()
    if fileSystemDescriptor >= 0 { close(fileSystemDescriptor) }
  }

  /// Takes a file just written: flushes it now (`fdatasync`) and closes it, or closes it
  /// and leaves it to the end.
  ///
  /// - Parameters:
  ///   - descriptor: The open file; the flusher owns it from now on.
  ///   - name: What it is, for messages (`'pages/a.txt'`).
  ///   - reopenable: Whether its owner can read it (else it is flushed now).
  func fileWritten(_ descriptor: Int32, name: String, reopenable: Bool) {
    if way == .eachFile || !reopenable {
      flushAndClose(descriptor, name: name)
    } else {
      close(descriptor)
    }
  }

  /// Takes a folder whose mode and time are set: flushes it now (`fsync`) and closes it,
  /// or closes it when the file system is flushed at the end.
  ///
  /// - Parameters:
  ///   - descriptor: The open folder; the flusher owns it from now on.
  ///   - name: What it is, for messages.
  func folderFinished(_ descriptor: Int32, name: String) {
    if settlement == .fileSystem {
      close(descriptor)
    } else {
      flushAndClose(descriptor, isFolder: true, name: name)
    }
  }

  /// Decides how an ``Way/atTheEnd`` flush ends, once every file is written and before
  /// the folders are finished: one `syncfs` when the machine's unwritten data is at most
  /// the expansion's own and ``otherDataLimit``, else each file of the staging tree now.
  ///
  /// - Parameters:
  ///   - root: The staging folder (not closed here).
  ///   - name: Its name, for messages.
  ///   - writtenBytes: How much the expansion wrote.
  func settle(root: Int32, name: String, writtenBytes: Int64) {
    guard way == .atTheEnd, settlement == nil else { return }
    let unwritten = unwrittenBytes() ?? .max
    let limit = writtenBytes.addingReportingOverflow(Self.otherDataLimit)
    if !limit.overflow && unwritten <= limit.partialValue {
      fileSystemDescriptor = dup(root)
      if fileSystemDescriptor >= 0 {
        fileSystemName = name
        settlement = .fileSystem
        return
      }
    }
    settlement = .eachFile
    flushFiles(inFolder: root, path: "")
  }

  /// Flushes a file (`fdatasync`) or a folder (`fsync`) now, on the flusher's threads,
  /// then closes the descriptor.
  ///
  /// Waits while ``pendingLimit`` descriptors are queued.
  ///
  /// - Parameters:
  ///   - descriptor: The open file or folder; the flusher owns it from now on.
  ///   - isFolder: Whether it is a folder (its entries, not its data, are flushed).
  ///   - name: What it is, for messages (`'pages/a.txt'`).
  func flushAndClose(_ descriptor: Int32, isFolder: Bool = false, name: String) {
    let pool = lock.withLock {
      while pending >= Self.pendingLimit { lock.wait() }
      pending += 1
      if self.pool == nil { self.pool = WorkerPool(threads: Self.concurrency) { () } }
      return self.pool!
    }
    if !isFolder { LinuxCalls.startWriteback(descriptor) }
    pool.submit { [self] _ in
      let status = SystemCall.retryingInterrupts {
        isFolder ? fsync(descriptor) : fdatasync(descriptor)
      }
      let code = errno
      close(descriptor)
      lock.withLock {
        if status != 0 {
          record(
            PackagingError(
              .destinationWriteFailed, "cannot flush \(name) to disk",
              cause: SystemError(errno: code)))
        }
        flushedCount += 1
        pending -= 1
        lock.broadcast()
      }
    }
  }

  /// Opens a folder and flushes it (`fsync`) on the calling thread; a folder that cannot be
  /// opened fails like a flush that fails (it cannot be known to be on disk).
  ///
  /// For the few folders around the move, one at a time: on this thread, so a flush settled
  /// by `syncfs` never starts the flusher's threads for them (32 stacks, half a MiB).
  ///
  /// - Parameters:
  ///   - path: The folder.
  ///   - name: What it is, for messages (`'/home/me/Notes'`).
  func flushFolder(atPath path: String, name: String) {
    let descriptor = SystemCall.retryingInterrupts {
      open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    guard descriptor >= 0 else { return fail("cannot flush \(name) to disk", errno: errno) }
    let status = SystemCall.retryingInterrupts { fsync(descriptor) }
    let code = errno
    close(descriptor)
    guard status == 0 else { return fail("cannot flush \(name) to disk", errno: code) }
    lock.withLock { flushedCount += 1 }
  }

  /// Waits until everything handed over is flushed and closed, after the one `syncfs`
  /// when that is how the end was settled.
  ///
  /// - Throws: ``PackagingError`` (`destination-write-failed`) for the first flush that failed.
  func waitForAll() throws {
    if fileSystemDescriptor >= 0 {
      let status = SystemCall.retryingInterrupts { LinuxCalls.syncFileSystem(fileSystemDescriptor) }
      let code = errno
      close(fileSystemDescriptor)
      fileSystemDescriptor = -1
      if status != 0 { fail("cannot flush \(fileSystemName) to disk", errno: code) }
    }
    try lock.withLock {
      while pending > 0 { lock.wait() }
      if let failure { throw failure }
    }
  }

  /// Waits for the queued flushes and ends the threads.
  func abandon() {
    guard !closed else { return }
    closed = true
    lock.withLock { pool }?.close()
  }

  /// Keeps the first failure; called with the lock held.
  private func record(_ error: PackagingError) {
    if failure == nil { failure = error }
  }

  /// Hands every regular file below a folder to ``flushAndClose(_:isFolder:name:)``:
  /// the folders are still owner-only (their modes come later), so every one opens.
  private func flushFiles(inFolder folder: Int32, path: String) {
    // Names as the file system holds them (bytes, NUL-terminated): a name that is not
    // valid UTF-8 is opened as it is, and only spelled for messages.
    var folders: [(name: [CChar], path: String)] = []
    do {
      try FolderListing.forEachNameInPlace(inFolder: folder) { raw in
        let name = raw.map { CChar(bitPattern: $0) } + [0]
        let display = String(decoding: raw, as: UTF8.self)
        let entryPath = path.isEmpty ? display : path + "/" + display
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
          fail("cannot flush '\(entryPath)' to disk", errno: errno)
          return true
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
          folders.append((name, entryPath))
        // A file its owner cannot read was flushed when it was written.
        case S_IFREG where info.st_mode & S_IRUSR != 0:
          let descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
          if descriptor >= 0 {
            flushAndClose(descriptor, name: "'\(entryPath)'")
          } else {
            fail("cannot flush '\(entryPath)' to disk", errno: errno)
          }
        default:
          break
        }
        return true
      }
    } catch {
      fail("cannot flush '\(path.isEmpty ? "." : path)' to disk", errno: error.errno)
    }
    for (name, entryPath) in folders {
      let descriptor = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard descriptor >= 0 else {
        fail("cannot flush '\(entryPath)' to disk", errno: errno)
        continue
      }
      flushFiles(inFolder: descriptor, path: entryPath)
      close(descriptor)
    }
  }

  private func fail(_ message: String, errno code: Int32) {
    lock.withLock {
      record(PackagingError(.destinationWriteFailed, message, cause: SystemError(errno: code)))
    }
  }
}
