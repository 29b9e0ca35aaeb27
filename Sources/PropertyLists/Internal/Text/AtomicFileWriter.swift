import FolioSystem
import FoundationEssentials
import Glibc

/// Writes a property list file through FolioSystem's atomic writer, with
/// ``PropertyListError``'s codes and messages.
enum AtomicFileWriter {
  /// Replaces `url` with `data`, atomically, keeping an existing file's permissions.
  ///
  /// - Throws: ``PropertyListError`` with `write-failed`, naming the path and the errno.
  static func write(_ data: Data, to url: URL) throws {
    do {
      try AtomicFile.write(data, to: url.path)
    } catch {
      let temporary = error.temporaryPath ?? url.path
      let what: String
      switch error.step {
      case .targetIsFolder:
        throw PropertyListError(
          .writeFailed, "cannot write \(url.path): it is a folder",
          location: SourceLocation(file: url.path))
      case .create: what = "create \(temporary)"
      case .write: what = "write \(temporary)"
      case .keepMode: what = "set the mode of \(temporary)"
      case .flush: what = "flush \(temporary)"
      case .targetExists, .move: what = "rename over \(url.path)"
      }
      let cause = error.cause ?? SystemError(errno: EIO)
      throw PropertyListError(
        .writeFailed, "cannot \(what): \(cause)", location: SourceLocation(file: url.path),
        cause: cause)
    }
  }
}
