import FolioSystem
import Foundation
import Packaging

/// Puts outputs in place atomically: written beside the target under a hidden
/// temporary name, synced, then renamed over it, so a reader sees the old
/// output or the new one and never half of one.
enum AtomicOutput {
  /// The tags of Folio's temporaries beside an output.
  static let temporaryTags = ["folio", "folio-old", "folio-work"]

  /// A hidden, unused name beside `target` (`.Name.folio-PID-XXXXXXXX`) on the same file
  /// system; the process ID lets a later run tell a killed run's leftover from a live one.
  static func temporarySibling(of target: URL, tag: String = "folio") -> URL {
    let name = ".\(target.lastPathComponent).\(tag)-\(getpid())-\(UUID().uuidString.prefix(8))"
    return target.deletingLastPathComponent().appendingPathComponent(name)
  }

  /// Removes what killed runs left beside `target` (temporaries older than this run whose
  /// process is gone); see ``LeftoverTemporaries``.
  static func removeLeftovers(beside target: URL) {
    for tag in temporaryTags {
      LeftoverTemporaries.remove(beside: target, marker: ".\(tag)-")
    }
  }

  /// Flushes a written file to disk, retrying interruptions.
  ///
  /// - Throws: ``ExportError`` `write-failed` naming the file.
  static func synchronize(_ handle: FileHandle, display: String) throws {
    let descriptor = handle.fileDescriptor
    guard SystemCall.retryingInterrupts({ fsync(descriptor) }) == 0 else {
      throw ExportError(
        .writeFailed, "cannot sync '\(display)' to disk", cause: POSIXErrorDescription(errno))
    }
  }

  /// Whether anything (file, folder, link, even a dangling one) exists at a path.
  static func exists(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0
  }

  /// The size of a regular file in bytes (0 when it cannot be examined).
  static func fileSize(_ url: URL) -> Int64 {
    var info = stat()
    return stat(url.path, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// Whether a path is a folder (not following a final symbolic link).
  static func isDirectory(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }

  /// Writes a regular file atomically.
  ///
  /// - Parameters:
  ///   - target: Where the file should end up.
  ///   - overwrite: Whether an existing target may be replaced.
  ///   - display: The target's name for messages.
  ///   - body: Writes the content to the handle.
  static func writeFile(
    at target: URL, overwrite: Bool, display: String, _ body: (FileHandle) throws -> Void
  ) throws {
    let temporary = temporarySibling(of: target)
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw ExportError(
        .writeFailed, "cannot create a temporary file beside '\(display)'",
        cause: POSIXErrorDescription(errno))
    }
    var committed = false
    defer { if !committed { try? FileManager.default.removeItem(at: temporary) } }
    let handle: FileHandle
    do {
      handle = try FileHandle(forWritingTo: temporary)
    } catch {
      throw ExportError(
        .writeFailed, "cannot open a temporary file beside '\(display)'", cause: error)
    }
    do {
      defer { try? handle.close() }
      try body(handle)
      try synchronize(handle, display: display)
    }
    try commit(temporary, to: target, overwrite: overwrite, display: display)
    committed = true
  }

  /// Moves a finished temporary file or folder over the target.
  ///
  /// Without `overwrite` an existing target is an `output-exists` error and is left
  /// untouched (a file is linked into place, which fails rather than replaces). With
  /// it, a file replaces a file in one rename; a folder first moves the old target
  /// aside, then renames the new one in, then removes the old one.
  static func commit(_ temporary: URL, to target: URL, overwrite: Bool, display: String) throws {
    syncDirectory(temporary.deletingLastPathComponent())
    if !overwrite {
      if !isDirectory(temporary) {
        if link(temporary.path, target.path) == 0 {
          unlink(temporary.path)
          syncDirectory(target.deletingLastPathComponent())
          return
        }
        if errno == EEXIST { throw outputExists(display) }
        // Some file systems refuse hard links; fall back to a checked rename.
      }
      if exists(target) { throw outputExists(display) }
      try rename(temporary, to: target, display: display)
      return
    }
    if exists(target) && (isDirectory(target) || isDirectory(temporary)) {
      let aside = temporarySibling(of: target, tag: "folio-old")
      try rename(target, to: aside, display: display)
      do {
        try rename(temporary, to: target, display: display)
      } catch {
        _ = Glibc.rename(aside.path, target.path)
        throw error
      }
      try? FileManager.default.removeItem(at: aside)
      return
    }
    try rename(temporary, to: target, display: display)
  }

  static func outputExists(_ display: String) -> ExportError {
    ExportError(
      .outputExists, "'\(display)' already exists; pass --force to replace it")
  }

  private static func rename(_ source: URL, to target: URL, display: String) throws {
    guard Glibc.rename(source.path, target.path) == 0 else {
      let code = errno
      if code == EEXIST || code == ENOTEMPTY { throw outputExists(display) }
      throw ExportError(
        .writeFailed, "cannot move the finished output into place at '\(display)'",
        cause: POSIXErrorDescription(code))
    }
    syncDirectory(target.deletingLastPathComponent())
  }

  /// Flushes a folder's entries (new names, renames) to disk; best effort.
  static func syncDirectory(_ url: URL) {
    let descriptor = open(url.path, O_RDONLY | O_DIRECTORY)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    fsync(descriptor)
  }
}

/// An errno with its text, as the cause under an export error.
struct POSIXErrorDescription: Error, Sendable, CustomStringConvertible {
  var code: Int32
  init(_ code: Int32) { self.code = code }
  var description: String { String(cString: strerror(code)) }
}

/// Removes a file or a whole folder tree, ignoring what is already gone.
func removeTree(_ url: URL) {
  guard AtomicOutput.exists(url) else { return }
  try? FileManager.default.removeItem(at: url)
}
