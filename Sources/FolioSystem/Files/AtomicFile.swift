package import Glibc

/// The one atomic file writer: a file written under a temporary name beside
/// its target and moved into place only when complete.
///
/// The temporary is named by ``TemporaryName`` (`.NAME.folio-tmp-PID-RANDOM`),
/// so a leftover of a killed run is recognised; creating one first removes
/// the target's stale leftovers (``LeftoverTemporaries``). ``commit(replacing:durable:)``
/// flushes the file (`fsync`), moves it over the target (``FileTree/move(_:to:replacing:durable:)``)
/// and flushes the folder; ``discard()``, also run when the writer goes away
/// uncommitted, removes the temporary and leaves the target as it was.
///
/// ```swift
/// try AtomicFile.write(bytes, to: "/tmp/Info.plist")
/// ```
package final class AtomicFile {
  /// Where the finished file goes.
  package let target: String
  /// The temporary file's path.
  package let temporaryPath: String
  /// The temporary file's open descriptor, for writing.
  package let descriptor: Int32
  private var finished = false

  /// A step of an atomic write that failed, with the `errno` behind it.
  package struct Failure: Error, Sendable, Equatable {
    /// Which step failed.
    package enum Step: Sendable, Equatable {
      /// The target is a folder, which a file cannot replace.
      case targetIsFolder
      /// The temporary file could not be created.
      case create
      /// Writing the temporary failed.
      case write
      /// Giving the temporary the replaced file's mode failed.
      case keepMode
      /// Flushing the temporary to disk failed.
      case flush
      /// The target exists and the write may not replace it.
      case targetExists
      /// Moving the finished file into place failed.
      case move
    }

    /// Which step failed.
    package var step: Step
    /// The target's path.
    package var target: String
    /// The temporary's path.
    package var temporaryPath: String?
    /// The system's error, when a system call failed.
    package var cause: SystemError?
  }

  /// Creates the temporary file beside a target.
  ///
  /// - Parameters:
  ///   - target: The final path; its folder must exist.
  ///   - permissions: The new file's mode (the process's umask applies).
  /// - Throws: ``Failure`` (`targetIsFolder`, `create`).
  package init(target: String, permissions: mode_t = 0o666) throws(Failure) {
    if FileTree.isFolder(target) {
      throw Failure(step: .targetIsFolder, target: target)
    }
    LeftoverTemporaries.remove(beside: target)
    var created: (String, Int32)?
    for _ in 0..<16 {
      let candidate = TemporaryName.beside(target)
      let descriptor = SystemCall.retryingInterrupts {
        open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
      }
      if descriptor >= 0 {
        created = (candidate, descriptor)
        break
      }
      if errno != EEXIST {
        throw Failure(step: .create, target: target, temporaryPath: candidate, cause: .current)
      }
    }
    guard let created else {
      throw Failure(step: .create, target: target, cause: SystemError(errno: EEXIST))
    }
    self.target = target
    (temporaryPath, descriptor) = created
  }

  deinit {
    if !finished { discard() }
  }

  /// Writes all of `bytes` at the current position, retrying interruptions and short writes.
  ///
  /// - Parameter bytes: What to write.
  /// - Throws: ``Failure`` (`write`).
  package func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
    let code = SystemCall.writeAll(descriptor, bytes)
    if code != 0 {
      throw Failure(
        step: .write, target: target, temporaryPath: temporaryPath,
        cause: SystemError(errno: code))
    }
  }

  /// Flushes the temporary, moves it over the target, and flushes the folder.
  ///
  /// A replaced regular file's mode carries over to the new one.
  ///
  /// - Parameters:
  ///   - replacing: Whether an existing target may be replaced; without it,
  ///     an existing target fails the write (`targetExists`) untouched.
  ///   - durable: Whether to flush the file and the folder to disk.
  /// - Throws: ``Failure`` (`keepMode`, `flush`, `targetExists`, `move`); the temporary is
  ///   removed then.
  package func commit(replacing: Bool = true, durable: Bool = true) throws(Failure) {
    guard !finished else { return }
    // A replaced file keeps its mode exactly (the umask does not apply), as `cp` onto an
    // existing file does: a 0600 archive stays private.
    var existing = stat()
    if replacing, lstat(target, &existing) == 0, existing.st_mode & S_IFMT == S_IFREG,
      fchmod(descriptor, existing.st_mode & 0o7777) != 0
    {
      let cause = SystemError.current
      discard()
      throw Failure(step: .keepMode, target: target, temporaryPath: temporaryPath, cause: cause)
    }
    if durable, SystemCall.retryingInterrupts({ fsync(descriptor) }) != 0 {
      let cause = SystemError.current
      discard()
      throw Failure(step: .flush, target: target, temporaryPath: temporaryPath, cause: cause)
    }
    finished = true
    close(descriptor)
    do {
      try FileTree.move(temporaryPath, to: target, replacing: replacing, durable: durable)
    } catch {
      unlink(temporaryPath)
      switch error {
      case .targetExists:
        throw Failure(step: .targetExists, target: target, temporaryPath: temporaryPath)
      case .failed(let cause):
        throw Failure(step: .move, target: target, temporaryPath: temporaryPath, cause: cause)
      }
    }
  }

  /// Closes and removes the temporary; the target is left as it was.
  package func discard() {
    guard !finished else { return }
    finished = true
    close(descriptor)
    unlink(temporaryPath)
  }

  /// Replaces (or creates) a file with `bytes`, atomically.
  ///
  /// - Parameters:
  ///   - bytes: The file's contents.
  ///   - target: The file's path.
  ///   - permissions: The mode of a new file; `nil` keeps an existing
  ///     target's mode, or uses 0644 for a new one.
  ///   - replacing: Whether an existing target may be replaced.
  /// - Throws: ``Failure``.
  package static func write(
    _ bytes: some Sequence<UInt8>, to target: String, permissions: mode_t? = nil,
    replacing: Bool = true
  ) throws(Failure) {
    var mode = permissions ?? 0o644
    var existing = stat()
    if permissions == nil, stat(target, &existing) == 0 { mode = existing.st_mode & 0o7777 }
    let file = try AtomicFile(target: target, permissions: mode)
    var failure: Failure?
    Array(bytes).withUnsafeBytes { raw in
      do throws(Failure) { try file.write(raw) } catch { failure = error }
    }
    if let failure {
      file.discard()
      throw failure
    }
    try file.commit(replacing: replacing)
  }
}
