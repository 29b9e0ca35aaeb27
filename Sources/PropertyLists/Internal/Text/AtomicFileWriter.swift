import FolioSystem
import FoundationEssentials
import Glibc

/// Writes a property list file through FolioSystem's atomic writer, with
/// ``PropertyListError``'s codes and messages.
enum AtomicFileWriter {
  /// The one check of an output before any work (``ReplacePolicy/check(outputAt:updatable:)``),
  /// with ``PropertyListError``'s codes: a property list is written whole, so `update` is
  /// refused.
  ///
  /// - Throws: ``PropertyListError`` `output-exists`, `update-unsupported`.
  static func check(_ url: URL, _ replacePolicy: ReplacePolicy) throws {
    _ = try PropertyListError.check(replacePolicy, outputAt: url.path, updatable: false)
  }

  /// Writes `data` to `url` atomically; an existing file is replaced (keeping its
  /// permissions) only when the policy replaces.
  ///
  /// - Throws: ``PropertyListError`` with `output-exists` when a file appeared at `url`
  ///   meanwhile, or `write-failed`, naming the path and the errno.
  static func write(_ data: Data, to url: URL, replacePolicy: ReplacePolicy) throws {
    do {
      try AtomicFile.write(data, to: url.path, replacing: replacePolicy.replacesExisting)
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
      case .targetExists:
        throw PropertyListError(ReplacePolicy.Refusal(reason: .exists, path: url.path))
      case .move: what = "rename over \(url.path)"
      }
      let cause = error.cause ?? SystemError(errno: EIO)
      throw PropertyListError(
        .writeFailed, "cannot \(what): \(cause)", location: SourceLocation(file: url.path),
        cause: cause)
    }
  }
}
