import Foundation

extension PackagingError {
  /// An error for a failed system call, with the errno as its cause.
  ///
  /// - Parameters:
  ///   - message: What failed, naming the path.
  ///   - errno: The system call's error number.
  /// - Returns: A ``Code/fileSystem`` error ending in the system's explanation.
  static func system(_ message: String, errno code: Int32) -> PackagingError {
    PackagingError(
      .fileSystem, "\(message): \(String(cString: strerror(code)))",
      cause: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
  }
}
