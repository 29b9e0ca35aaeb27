public import FoundationEssentials
import Glibc

/// A failed system call: its `errno` and the system's text for it.
///
/// The one errno error of every Folio module: the cause under a module's
/// error when a system call failed (`cannot open 'X': No such file or directory`).
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
  /// The `errno` value.
  public let errno: Int32

  /// Creates an error from an `errno` value.
  ///
  /// - Parameter errno: The value.
  public init(errno: Int32) { self.errno = errno }

  /// The error of the system call that just failed (the thread's `errno` now).
  public static var current: SystemError { SystemError(errno: Glibc.errno) }

  /// The system's text, such as `No such file or directory`.
  public var description: String { String(cString: strerror(errno)) }

  /// The system's text, as an alert shows it (Apple's `LocalizedError`).
  public var errorDescription: String? { description }
}
