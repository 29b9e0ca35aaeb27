import FolioSystem
import FoundationEssentials
import Glibc

extension PackagingError {
  /// An error for a failed system call, with the errno as its cause.
  ///
  /// - Parameters:
  ///   - message: What failed, naming the path.
  ///   - errno: The system call's error number.
  /// - Returns: A ``PackagingErrorDomain/Code/fileSystem`` error whose cause is the system's
  ///   explanation.
  package static func system(_ message: String, errno code: Int32) -> PackagingError {
    // The cause prints as the system's words alone (`No space left on device`), so the
    // description reads `cannot write 'x.zip': No space left on device`; an NSError
    // cause would print Foundation's `Error Domain=NSPOSIXErrorDomain Code=28 …`.
    PackagingError(.fileSystem, message, cause: SystemError(errno: code))
  }

  /// The error for an archive's atomic write that failed.
  ///
  /// - Parameter failure: The failed step.
  /// - Returns: A ``PackagingErrorDomain/Code/fileSystem`` error naming the archive.
  static func archiveWrite(_ failure: AtomicFile.Failure) -> PackagingError {
    let path = failure.target
    let code = failure.cause?.errno ?? EIO
    switch failure.step {
    case .targetIsFolder:
      return PackagingError(.fileSystem, "cannot write archive '\(path)': it is a folder")
    case .create:
      return system("cannot create a temporary file beside '\(path)'", errno: code)
    case .write:
      return system("cannot write '\(failure.temporaryPath ?? path)'", errno: code)
    case .keepMode:
      return system(
        "cannot give '\(failure.temporaryPath ?? path)' the mode of '\(path)'", errno: code)
    case .flush:
      return system("cannot flush '\(path)' to disk", errno: code)
    case .targetExists:
      return PackagingError(ReplacePolicy.Refusal(reason: .exists, path: path))
    case .move:
      return system("cannot move the archive into place at '\(path)'", errno: code)
    }
  }
}
