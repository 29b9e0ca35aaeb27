public import FoundationEssentials

/// The one shape of every Folio module's error.
///
/// Every module's error is a ``FolioFailure`` of the module's ``FolioErrorDomain``
/// (`PropertyListError`, `UniformTypeError`, `PackagingError`, `ExportError`), so a
/// program (or the `folio` command) handles any Folio failure the same way: a stable
/// ``code`` to branch on, a ``message`` that names the path, entry, line or type involved,
/// the ``location`` in a source file when there is one, and the ``cause`` underneath (a
/// system call's errno, a library's message, another Folio error).
///
/// Messages say what failed in plain words and never name a command-line
/// option: a program that wraps Folio adds its own advice when it shows the
/// error (the `folio` command adds `use --force to replace it`).
///
/// ```swift
/// do {
///   try await Packer.pack(package, to: archive)
/// } catch let error as any FolioError {
///   print(error.code.rawValue, error.message)
/// }
/// ```
public protocol FolioError: LocalizedError, Sendable, CustomStringConvertible {
  /// The module's type of stable codes.
  associatedtype Code: FolioErrorCode

  /// What kind of failure this is; stable across releases.
  var code: Code { get }
  /// One line naming what failed and where.
  var message: String { get }
  /// Where in a source file the failure is, when it has a place.
  var location: SourceLocation? { get }
  /// The error underneath, such as a system call's errno or a library's message.
  var cause: (any Error & Sendable)? { get }
}

/// A stable identifier for a kind of failure, spelled in kebab case (`lock-timeout`).
///
/// Each module has its own code type, so a code is checked against the
/// module's error it belongs to; new codes never break callers.
public protocol FolioErrorCode: Hashable, Sendable, CustomStringConvertible {
  /// The code's stable spelling, such as `unsafe-entry-path`.
  var rawValue: String { get }

  /// Creates a code from its stable spelling.
  ///
  /// - Parameter rawValue: The code's spelling.
  init(_ rawValue: String)
}

extension FolioErrorCode {
  /// The code's stable spelling.
  public var description: String { rawValue }
}

extension FolioError {
  /// `location: message: cause`, ready for standard error.
  public var description: String {
    var text = location.map { "\($0): " } ?? ""
    text += message
    if let cause { text += ": \(cause)" }
    return text
  }

  /// The deepest cause under a chain of Folio errors (this error itself when
  /// it has no cause), such as the errno under a failed write.
  public var rootCause: any Error {
    var current: any Error = self
    while let folio = current as? any FolioError, let next = folio.cause {
      current = next
    }
    return current
  }
}

extension FolioError {
  /// The error as a person reads it (``description``: the location, the message and the
  /// cause), so `error.localizedDescription`, an alert or a log shows Folio's own words, as
  /// Apple's `LocalizedError` asks.
  public var errorDescription: String? { description }
}
