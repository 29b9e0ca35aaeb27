import FolioSystem
import Glibc

/// Makes the files and folders an expansion wrote durable, many at a time,
/// instead of flushing the whole file system.
///
/// Each file is handed over as soon as it is written (its writeback already
/// started): a flusher thread calls `fdatasync` and closes it, while the
/// expansion goes on. Folders follow once their entries are in place
/// (`fsync`). Waiting for the disk is what these threads do, not computing, so
/// there are ``concurrency`` of them whatever `--jobs` is: concurrent flushes
/// share the file system's journal commits, where one file after another
/// waits for a commit each (20,000 small files took 82 s one by one, 0.3 s 32
/// at a time, on this project's ext4 test machine). At most ``pendingLimit``
/// descriptors wait, so an expansion never holds more open files than that.
///
/// Unlike `syncfs`, it waits for no other process's data.
final class FileFlusher: @unchecked Sendable {
  /// How many flushes run at once.
  static let concurrency = 32
  /// The most descriptors handed over and not yet closed.
  static let pendingLimit = 256

  private let pool: WorkerPool<Void>
  private let lock = ConditionLock()
  private var pending = 0
  private var failure: PackagingError?
  private var closed = false

  init() {
    pool = WorkerPool(threads: Self.concurrency) { () }
  }

  deinit { abandon() }

  /// Flushes a written file (`fdatasync`), or a folder (`fsync`), then closes the descriptor.
  ///
  /// Waits while ``pendingLimit`` descriptors are queued.
  ///
  /// - Parameters:
  ///   - descriptor: The open file or folder; the flusher owns it from now on.
  ///   - isFolder: Whether it is a folder (its entries, not its data, are flushed).
  ///   - name: What it is, for messages (`'pages/a.txt'`).
  func flushAndClose(_ descriptor: Int32, isFolder: Bool = false, name: String) {
    lock.withLock {
      while pending >= Self.pendingLimit { lock.wait() }
      pending += 1
    }
    if !isFolder { LinuxCalls.startWriteback(descriptor) }
    pool.submit { [self] _ in
      let status = SystemCall.retryingInterrupts {
        isFolder ? fsync(descriptor) : fdatasync(descriptor)
      }
      let code = errno
      close(descriptor)
      lock.withLock {
        if status != 0 && failure == nil {
          failure = PackagingError(
            .destinationWriteFailed, "cannot flush \(name) to disk", cause: SystemError(errno: code)
          )
        }
        pending -= 1
        lock.broadcast()
      }
    }
  }

  /// Opens a folder and flushes it as ``flushAndClose(_:isFolder:name:)`` does; a folder that
  /// cannot be opened fails like a flush that fails (it cannot be known to be on disk).
  ///
  /// - Parameters:
  ///   - path: The folder.
  ///   - name: What it is, for messages (`'/home/me/Notes'`).
  func flushFolder(atPath path: String, name: String) {
    let descriptor = SystemCall.retryingInterrupts {
      open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }
    guard descriptor >= 0 else {
      let code = errno
      lock.withLock {
        if failure == nil {
          failure = PackagingError(
            .destinationWriteFailed, "cannot flush \(name) to disk", cause: SystemError(errno: code)
          )
        }
      }
      return
    }
    flushAndClose(descriptor, isFolder: true, name: name)
  }

  /// Waits until everything handed over is flushed and closed.
  ///
  /// - Throws: ``PackagingError`` (`destination-write-failed`) for the first flush that failed.
  func waitForAll() throws {
    try lock.withLock {
      while pending > 0 { lock.wait() }
      if let failure { throw failure }
    }
  }

  /// Waits for the queued flushes and ends the threads.
  func abandon() {
    guard !closed else { return }
    closed = true
    pool.close()
  }
}
