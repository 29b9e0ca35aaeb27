import Foundation

/// A failed system call: its `errno` and the system's text for it.
struct SystemError: Error, Sendable, CustomStringConvertible {
  /// The `errno` value.
  let errno: Int32

  /// Creates an error from an `errno` value.
  ///
  /// - Parameter errno: The value.
  init(errno: Int32) { self.errno = errno }

  /// The system's text, such as `No such file or directory`.
  var description: String { String(cString: strerror(errno)) }
}
