import FolioSystem
public import FoundationEssentials
import Glibc
import Synchronization

/// An advisory lock on a package, so two `folio` processes never interleave on one.
///
/// Readers (pack, list) take a ``Kind/shared`` lock on the package they read;
/// writers (expand) take an ``Kind/exclusive`` lock on the package they
/// write. The lock is a `flock(2)` lock on a small file beside the package,
/// `.NAME.folio-lock`, named after the package's *resolved* path: every
/// spelling of one package (`Notes`, `./Notes/`, a symbolic link `Current ->
/// Notes`) shares one lock file. A reader of a package on a read-only file
/// system, or in a folder it may not write to, cannot create that file:
/// unless one is already there to lock, it locks the package itself (a
/// shared `flock` on the package's own inode, which needs no write), and
/// ``isStandIn`` says so. The last holder removes the file when it releases
/// (a locker checks, once it holds the lock, that the file it locked is
/// still the one at the path, and starts again if not). Waiting is visible:
/// ``LockOptions/onWait`` is given a ``LockWait`` once, before the first sleep,
/// and the wait ends with ``PackagingErrorDomain/Code/lockTimeout`` after
/// ``LockOptions/timeout``.
///
/// ```swift
/// let lock = try await PackageLock.acquire(
///   .exclusive, on: destination, options: LockOptions(timeout: .seconds(5)))
/// defer { lock.release() }
/// ```
///
/// The lock is released by ``release()`` or when the value is deinitialised.
public final class PackageLock: Sendable {
  /// Whether others may hold the lock at the same time.
  public enum Kind: String, Sendable {
    /// Many readers at once; no writer.
    case shared
    /// One writer; no readers.
    case exclusive
  }

  /// How often a blocked lock is tried again.
  public static let retryInterval: Duration = .milliseconds(50)

  /// The package the lock protects.
  public let package: URL
  /// The lock file beside it.
  public let lockFile: URL
  /// The kind held.
  public let kind: Kind
  private let descriptor: Mutex<Int32>

  private init(package: URL, lockFile: URL, kind: Kind, descriptor: Int32) {
    self.package = package
    self.lockFile = lockFile
    self.kind = kind
    self.descriptor = Mutex(descriptor)
  }

  deinit { release() }

  /// Whether the lock is held on the package itself, not on a lock file beside it.
  ///
  /// That is a reader's stand-in where no lock file could be created (a read-only file
  /// system).
  /// It keeps other readers' stand-ins company but excludes no writer, and none can
  /// write there anyway.
  public var isStandIn: Bool { lockFile == Self.resolvedPackage(package) }

  /// The lock file for a package: `.NAME.folio-lock` beside its resolved path.
  ///
  /// - Parameter package: The package (or archive) path, in any spelling.
  /// - Returns: The lock file's URL.
  public static func lockFile(for package: URL) -> URL {
    let resolved = resolvedPackage(package)
    return resolved.deletingLastPathComponent()
      .appendingPathComponent(".\(resolved.lastPathComponent).folio-lock")
  }

  /// The one path every spelling of a package resolves to: the package itself with every
  /// symbolic link resolved when it exists, else its resolved folder and its name.
  ///
  /// - Parameter package: The package path as given.
  /// - Returns: The resolved path.
  static func resolvedPackage(_ package: URL) -> URL {
    let standard = package.standardizedFileURL
    if let real = realPath(standard.path) { return URL(fileURLWithPath: real) }
    let parent = standard.deletingLastPathComponent()
    guard let folder = realPath(parent.path) else { return standard }
    return URL(fileURLWithPath: folder).appendingPathComponent(standard.lastPathComponent)
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Takes a lock, sleeping between tries without blocking a thread.
  ///
  /// - Parameters:
  ///   - kind: Shared (readers) or exclusive (writers).
  ///   - package: The package to lock; its folder must exist.
  ///   - options: How long to wait, and whom to tell.
  /// - Returns: The held lock.
  /// - Throws: ``PackagingError`` (`lock-timeout`, or the lock file cannot be opened);
  ///   `CancellationError` when the task is cancelled while waiting.
  public static func acquire(
    _ kind: Kind, on package: URL, options: LockOptions = .default
  ) async throws -> PackageLock {
    try await acquire(kind, on: package, options: options) {
      try await Task.sleep(for: retryInterval)
    }
  }

  /// Takes a lock, blocking the calling thread between tries.
  ///
  /// - Parameters:
  ///   - kind: Shared (readers) or exclusive (writers).
  ///   - package: The package to lock; its folder must exist.
  ///   - options: How long to wait, and whom to tell.
  /// - Returns: The held lock.
  /// - Throws: ``PackagingError`` (`lock-timeout`, or the lock file cannot be opened).
  public static func acquireBlocking(
    _ kind: Kind, on package: URL, options: LockOptions = .default
  ) throws -> PackageLock {
    let (seconds, attoseconds) = retryInterval.components
    let micros = UInt32(seconds) * 1_000_000 + UInt32(attoseconds / 1_000_000_000_000)
    return try acquireSync(kind, on: package, options: options) { usleep(micros) }
  }

  /// Runs `body` while holding a lock, releasing it however `body` ends.
  ///
  /// - Parameters:
  ///   - kind: Shared (readers) or exclusive (writers).
  ///   - package: The package to lock.
  ///   - options: How long to wait, and whom to tell.
  ///   - body: The work.
  /// - Returns: What `body` returns.
  /// - Throws: What acquiring or `body` throws.
  public static func withLock<T>(
    _ kind: Kind, on package: URL, options: LockOptions = .default,
    _ body: () async throws -> T
  ) async throws -> T {
    let lock = try await acquire(kind, on: package, options: options)
    defer { lock.release() }
    return try await body()
  }

  /// Releases the lock, removing the lock file when nobody else holds or waits
  /// for it; later calls do nothing.
  public func release() {
    let path = lockFile.path
    let standIn = isStandIn
    descriptor.withLock { descriptor in
      guard descriptor >= 0 else { return }
      // Nobody else holds it when it converts to exclusive at once; a waiter that
      // opened the file before the unlink sees the inode change and starts again.
      if !standIn, flock(descriptor, LOCK_EX | LOCK_NB) == 0,
        Self.isCurrent(descriptor, path: path)
      {
        unlink(path)
      }
      close(descriptor)  // closing the only descriptor drops the flock
      descriptor = -1
    }
  }

  /// Whether the descriptor's file is still the one at `path` (not removed or replaced).
  private static func isCurrent(_ descriptor: Int32, path: String) -> Bool {
    var held = stat()
    var named = stat()
    guard fstat(descriptor, &held) == 0, stat(path, &named) == 0 else { return false }
    return held.st_dev == named.st_dev && held.st_ino == named.st_ino
  }

  private static func acquire(
    _ kind: Kind, on package: URL, options: LockOptions, sleep: () async throws -> Void
  ) async throws -> PackageLock {
    var attempt = try Attempt(kind: kind, package: package, options: options)
    while true {
      if let lock = try attempt.tryOnce() { return lock }
      do {
        try await sleep()
      } catch {
        attempt.abandon()
        throw error
      }
    }
  }

  private static func acquireSync(
    _ kind: Kind, on package: URL, options: LockOptions, sleep: () -> Void
  ) throws -> PackageLock {
    var attempt = try Attempt(kind: kind, package: package, options: options)
    while true {
      if let lock = try attempt.tryOnce() { return lock }
      sleep()
    }
  }

  /// One caller's way to a lock: the open lock file, the deadline, and whether
  /// the wait was announced; the blocking and the async variants differ only in
  /// how they sleep between tries.
  private struct Attempt {
    let kind: Kind
    let package: URL
    let options: LockOptions
    let deadline: ContinuousClock.Instant
    var lockFile: URL
    var descriptor: Int32
    var announced = false

    init(kind: Kind, package: URL, options: LockOptions) throws {
      self.kind = kind
      self.package = package
      self.options = options
      deadline = ContinuousClock.now.advanced(by: options.timeout)
      (lockFile, descriptor) = try PackageLock.openLockFile(for: package, kind: kind)
    }

    /// Tries the lock once.
    ///
    /// - Returns: The held lock, or `nil` when the caller should sleep and try again.
    /// - Throws: ``PackagingError`` on a timeout or when the lock file cannot be
    ///   opened; the descriptor is closed before any throw.
    mutating func tryOnce() throws -> PackageLock? {
      do {
        while try PackageLock.tryLock(descriptor, kind: kind, lockFile: lockFile) {
          if PackageLock.isCurrent(descriptor, path: lockFile.path) {
            return PackageLock(
              package: package, lockFile: lockFile, kind: kind, descriptor: descriptor)
          }
          close(descriptor)  // the last holder removed it: lock the new file
          descriptor = -1
          (lockFile, descriptor) = try PackageLock.openLockFile(for: package, kind: kind)
        }
        if ContinuousClock.now >= deadline {
          throw PackageLock.timedOut(package, kind: kind, timeout: options.timeout)
        }
      } catch {
        abandon()
        throw error
      }
      if !announced {
        announced = true
        options.onWait?(LockWait(kind: kind, package: package, timeout: options.timeout))
      }
      return nil
    }

    /// Closes the lock file of an attempt that gives up.
    mutating func abandon() {
      if descriptor >= 0 { close(descriptor) }
      descriptor = -1
    }
  }

  private static func openLockFile(for package: URL, kind: Kind) throws -> (URL, Int32) {
    let lockFile = lockFile(for: package)
    var descriptor: Int32
    repeat {
      descriptor = open(lockFile.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
    } while descriptor < 0 && errno == EINTR
    if descriptor < 0 && (errno == EACCES || errno == EROFS) && kind == .shared {
      // A reader of a package in a folder it cannot write to still locks an existing file,
      descriptor = open(lockFile.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
      if descriptor < 0 && errno == ENOENT {
        // or else the package itself: a lock that needs no write.
        let resolved = resolvedPackage(package)
        descriptor = open(resolved.path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 { return (resolved, descriptor) }
      }
    }
    guard descriptor >= 0 else {
      throw PackagingError(
        .destinationWriteFailed, "cannot open the lock file '\(lockFile.path)'",
        cause: SystemError(errno: errno))
    }
    return (lockFile, descriptor)
  }

  private static func tryLock(_ descriptor: Int32, kind: Kind, lockFile: URL) throws -> Bool {
    let operation = (kind == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB
    while true {
      if flock(descriptor, operation) == 0 { return true }
      switch errno {
      case EINTR: continue
      case EWOULDBLOCK: return false
      default:
        throw PackagingError(
          .destinationWriteFailed, "cannot lock '\(lockFile.path)'",
          cause: SystemError(errno: errno))
      }
    }
  }

  private static func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    let tenths = fraction / 100_000_000_000_000_000
    return tenths == 0 ? "\(whole)" : "\(whole).\(tenths)"
  }

  package static func timedOut(_ package: URL, kind: Kind, timeout: Duration) -> PackagingError {
    PackagingError(
      .lockTimeout,
      "timed out after \(seconds(timeout)) s waiting for the \(kind.rawValue) lock on '\(package.path)'"
    )
  }
}
