public import FolioSystem

/// A failure to pack, expand or list an archive.
///
/// Like every Folio module's error (``FolioError``), it carries a stable
/// `code` (for scripts and tests), a `message` that names the path, entry,
/// line or type involved, and the underlying `cause` (an errno, a library
/// message, another error) when there is one.
public struct PackagingError: FolioError {
  /// A stable identifier for a kind of failure; new codes never break callers.
  public struct Code: FolioErrorCode {
    /// The code's stable spelling, such as `unsafe-entry-path`.
    public let rawValue: String

    /// Creates a code from its stable spelling.
    ///
    /// - Parameter rawValue: The code's spelling.
    public init(_ rawValue: String) { self.rawValue = rawValue }
  }

  /// What kind of failure this is.
  public var code: Code
  /// One line naming what failed and where.
  public var message: String
  /// Where in a source file the failure is, when it has a place.
  public var location: SourceLocation?
  /// The error underneath, such as a system call's errno or a library's message.
  public var cause: (any Error & Sendable)?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What kind of failure this is.
  ///   - message: One line naming what failed and where.
  ///   - location: Where in a source file the failure is.
  ///   - cause: The error underneath.
  public init(
    _ code: Code, _ message: String, location: SourceLocation? = nil,
    cause: (any Error & Sendable)? = nil
  ) {
    self.code = code
    self.message = message
    self.location = location
    self.cause = cause
  }
}
