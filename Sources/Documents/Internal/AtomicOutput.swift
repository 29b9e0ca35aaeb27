import Archives
import FolioSystem
import FoundationEssentials
import Glibc

/// Puts outputs in place atomically, through FolioSystem: written beside the
/// target under a temporary name (``TemporaryName``), synced, then moved
/// over it (``FileTree/move(_:to:replacing:durable:)``), so a reader sees the
/// old output or the new one and never half of one.
enum AtomicOutput {
  /// A hidden, unused name beside `target` (`.Name.folio-KIND-PID-RANDOM`) on the same
  /// file system; the process ID lets a later run tell a killed run's leftover from a live one.
  static func temporarySibling(of target: URL, kind: TemporaryName.Kind = .file) -> URL {
    URL(fileURLWithPath: TemporaryName.beside(target.path, kind: kind))
  }

  /// Removes what killed runs left beside `target`; see ``LeftoverTemporaries``.
  static func removeLeftovers(beside target: URL) {
    LeftoverTemporaries.remove(beside: target.path)
  }

  /// Flushes a written file to disk, retrying interruptions.
  ///
  /// - Throws: ``ExportError`` `write-failed` naming the file.
  static func synchronize(_ descriptor: Int32, display: String) throws {
    guard SystemCall.retryingInterrupts({ fsync(descriptor) }) == 0 else {
      throw ExportError(
        .writeFailed, "cannot sync '\(display)' to disk", cause: SystemError.current)
    }
  }

  /// Whether anything (file, folder, link, even a dangling one) exists at a path.
  static func exists(_ url: URL) -> Bool { FileTree.exists(url.path) }

  /// The size of a regular file in bytes (0 when it cannot be examined).
  static func fileSize(_ url: URL) -> Int64 {
    var info = stat()
    return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// Whether a path is a folder (not following a final symbolic link).
  static func isDirectory(_ url: URL) -> Bool { FileTree.isFolder(url.path) }

  /// The one check of an output before any work (``ReplacePolicy/check(outputAt:updatable:)``),
  /// with ``ExportError``'s codes: an export is written whole, so `update` is refused.
  ///
  /// - Returns: Whether something is at `target`.
  /// - Throws: ``ExportError`` `output-exists`, `update-unsupported`.
  @discardableResult
  static func check(_ target: URL, _ replacePolicy: ReplacePolicy) throws -> Bool {
    try ExportError.check(replacePolicy, outputAt: target.path, updatable: false)
  }

  /// Moves a finished temporary file or folder over the target.
  ///
  /// Unless the policy replaces, an existing target is an `output-exists` error
  /// and is left untouched. Otherwise a file replaces a file in one rename, and a
  /// folder is swapped in (the old one then removed).
  static func commit(
    _ temporary: URL, to target: URL, replacePolicy: ReplacePolicy, display: String
  ) throws {
    let replacing = replacePolicy.replacesExisting
    // A replaced file keeps its mode, as `cp` onto an existing file does.
    var existing = stat()
    if replacing, !isDirectory(temporary), lstat(target.path, &existing) == 0,
      existing.st_mode & S_IFMT == S_IFREG, chmod(temporary.path, existing.st_mode & 0o7777) != 0
    {
      throw ExportError(
        .writeFailed,
        "cannot give the new '\(display)' the old one's mode: \(String(cString: strerror(errno)))")
    }
    FileTree.synchronizeFolder(of: temporary.path)
    do {
      try FileTree.move(temporary.path, to: target.path, replacing: replacing)
    } catch .targetExists {
      throw ExportError(ReplacePolicy.Refusal(reason: .exists, path: display))
    } catch .failed(let cause) {
      throw ExportError(
        .writeFailed, "cannot move the finished output into place at '\(display)'",
        cause: cause)
    }
  }
}

/// Removes a file or a whole folder tree, ignoring what is already gone.
func removeTree(_ url: URL) {
  FileTree.remove(atPath: url.path)
}
